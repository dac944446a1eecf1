package encoders

import (
	"cmp"
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// modelConfig is a single-tower architecture's config.json.
type modelConfig interface {
	// setDefaults fills what HF's config class defaults when config.json
	// leaves it out.
	setDefaults()
	validate(what string, r *weightReader) error
	activation() string
}

// prepareConfig readies a config for building a model: the BLAS is
// chosen (if the program chose none), defaults filled, sizes and shapes
// validated, and the hidden activation looked up.
func prepareConfig(c modelConfig, what string, r *weightReader) (compute.Activation, error) {
	c.setDefaults()
	if err := c.validate(what, r); err != nil {
		return compute.Identity, err
	}
	act, err := compute.ActivationByName(c.activation())
	if err != nil {
		return compute.Identity, fmt.Errorf("%s: %w", what, err)
	}
	return act, nil
}

func (c *BERTConfig) setDefaults() {
	c.LayerNormEps = cmp.Or(c.LayerNormEps, 1e-12)
	c.HiddenAct = cmp.Or(c.HiddenAct, "gelu")
}

func (c *ALBERTConfig) setDefaults() {
	c.NumHiddenGroups = cmp.Or(c.NumHiddenGroups, 1)
	c.InnerGroupNum = cmp.Or(c.InnerGroupNum, 1)
	c.LayerNormEps = cmp.Or(c.LayerNormEps, 1e-12)
	c.HiddenAct = cmp.Or(c.HiddenAct, "gelu_new")
}

func (c *ViTConfig) setDefaults() {
	c.NumChannels = cmp.Or(c.NumChannels, 3)
	c.LayerNormEps = cmp.Or(c.LayerNormEps, 1e-12)
	c.HiddenAct = cmp.Or(c.HiddenAct, "gelu")
}

func (c *BERTConfig) activation() string   { return c.HiddenAct }
func (c *ALBERTConfig) activation() string { return c.HiddenAct }
func (c *ViTConfig) activation() string    { return c.HiddenAct }

// The validate methods check a config.json before a model allocates
// anything: every size against its bound (config_limits.go), the
// architecture's divisibility rules, and then, from the checkpoint's index
// alone, that the tensors these sizes imply exist with those shapes —
// including the last layer, so that a layer count the checkpoint does not
// hold fails before the layers are built.

// textLimits bounds the sizes BERT and ALBERT configs share.
func textLimits(vocab, hidden, layers, heads, inter, positions, types int) []configLimit {
	return []configLimit{
		{"vocab_size", vocab, maxVocab}, {"hidden_size", hidden, maxWidth},
		{"num_hidden_layers", layers, maxLayers}, {"num_attention_heads", heads, maxHeads},
		{"intermediate_size", inter, maxWidth}, {"max_position_embeddings", positions, maxPositions},
		{"type_vocab_size", types, maxTypeVocab},
	}
}

func (c *BERTConfig) validate(what string, r *weightReader) error {
	if err := checkLimits(what, textLimits(c.VocabSize, c.HiddenSize, c.NumHiddenLayers, c.NumAttentionHeads,
		c.IntermediateSize, c.MaxPositionEmbeddings, c.TypeVocabSize)...); err != nil {
		return err
	}
	if c.HiddenSize%c.NumAttentionHeads != 0 {
		return fmt.Errorf("%s: hidden_size %d is not a multiple of num_attention_heads %d", what, c.HiddenSize, c.NumAttentionHeads)
	}
	if c.PositionEmbeddingType != "" && c.PositionEmbeddingType != "absolute" {
		return fmt.Errorf("%s: position_embedding_type %q is not supported (only absolute)", what, c.PositionEmbeddingType)
	}
	H, last := c.HiddenSize, c.NumHiddenLayers-1
	return r.checkShapes(what,
		shapeCheck{nn.BERTWordEmbeddings, []int{c.VocabSize, H}, "vocab_size and hidden_size"},
		shapeCheck{nn.BERTPositionEmbeddings, []int{c.MaxPositionEmbeddings, H}, "max_position_embeddings and hidden_size"},
		shapeCheck{nn.BERTTokenTypeEmbeddings, []int{c.TypeVocabSize, H}, "type_vocab_size and hidden_size"},
		shapeCheck{nn.BERTLayerPrefix(last) + nn.BERTLayerNames.FFNIn + ".weight", []int{c.IntermediateSize, H}, "num_hidden_layers, intermediate_size and hidden_size"})
}

func (c *ALBERTConfig) validate(what string, r *weightReader) error {
	limits := append(textLimits(c.VocabSize, c.HiddenSize, c.NumHiddenLayers, c.NumAttentionHeads,
		c.IntermediateSize, c.MaxPositionEmbeddings, c.TypeVocabSize),
		configLimit{"embedding_size", c.EmbeddingSize, maxWidth},
		configLimit{"num_hidden_groups", c.NumHiddenGroups, maxLayers},
		configLimit{"inner_group_num", c.InnerGroupNum, maxLayers})
	if err := checkLimits(what, limits...); err != nil {
		return err
	}
	if c.HiddenSize%c.NumAttentionHeads != 0 || c.NumHiddenLayers%c.NumHiddenGroups != 0 {
		return fmt.Errorf("%s: hidden_size %d must be a multiple of num_attention_heads %d and num_hidden_layers %d of num_hidden_groups %d",
			what, c.HiddenSize, c.NumAttentionHeads, c.NumHiddenLayers, c.NumHiddenGroups)
	}
	if c.NumHiddenGroups*c.InnerGroupNum > maxLayers {
		return fmt.Errorf("%s: num_hidden_groups %d × inner_group_num %d layers is more than %d", what, c.NumHiddenGroups, c.InnerGroupNum, maxLayers)
	}
	E, H := c.EmbeddingSize, c.HiddenSize
	return r.checkShapes(what,
		shapeCheck{nn.ALBERTWordEmbeddings, []int{c.VocabSize, E}, "vocab_size and embedding_size"},
		shapeCheck{nn.ALBERTPositionEmbeddings, []int{c.MaxPositionEmbeddings, E}, "max_position_embeddings and embedding_size"},
		shapeCheck{nn.ALBERTTokenTypeEmbeddings, []int{c.TypeVocabSize, E}, "type_vocab_size and embedding_size"},
		shapeCheck{nn.ALBERTMapIn + ".weight", []int{H, E}, "hidden_size and embedding_size"},
		shapeCheck{nn.ALBERTLayerPrefix(c.NumHiddenGroups-1, c.InnerGroupNum-1) + nn.ALBERTLayerNames.FFNIn + ".weight", []int{c.IntermediateSize, H},
			"num_hidden_groups, inner_group_num, intermediate_size and hidden_size"})
}

func (c *ViTConfig) validate(what string, r *weightReader) error {
	if err := checkLimits(what,
		configLimit{"hidden_size", c.HiddenSize, maxWidth},
		configLimit{"num_hidden_layers", c.NumHiddenLayers, maxLayers},
		configLimit{"num_attention_heads", c.NumAttentionHeads, maxHeads},
		configLimit{"intermediate_size", c.IntermediateSize, maxWidth},
		configLimit{"image_size", c.ImageSize, maxImageSize},
		configLimit{"patch_size", c.PatchSize, c.ImageSize},
		configLimit{"num_channels", c.NumChannels, maxChannels}); err != nil {
		return err
	}
	if c.ImageSize%c.PatchSize != 0 || c.HiddenSize%c.NumAttentionHeads != 0 {
		return fmt.Errorf("%s: image_size %d must be a multiple of patch_size %d, hidden_size %d of num_attention_heads %d",
			what, c.ImageSize, c.PatchSize, c.HiddenSize, c.NumAttentionHeads)
	}
	H, P := c.HiddenSize, c.PatchSize
	n := (c.ImageSize / P) * (c.ImageSize / P)
	return r.checkShapes(what,
		shapeCheck{nn.ViTClassToken, []int{1, 1, H}, "hidden_size"},
		shapeCheck{nn.ViTPositionEmbeddings, []int{1, n + 1, H}, "image_size, patch_size and hidden_size"},
		shapeCheck{nn.ViTPatchEmbedding + ".weight", []int{H, c.NumChannels, P, P}, "hidden_size, num_channels and patch_size"},
		shapeCheck{nn.ViTLayerPrefix(c.NumHiddenLayers-1) + nn.ViTLayerNames.FFNIn + ".weight", []int{c.IntermediateSize, H}, "num_hidden_layers, intermediate_size and hidden_size"})
}

func (c *CLIPConfig) validate(what string, r *weightReader) error {
	t, v := &c.TextConfig, &c.VisionConfig
	if err := checkLimits(what,
		configLimit{"projection_dim", c.ProjectionDim, maxWidth},
		configLimit{"text_config.vocab_size", t.VocabSize, maxVocab},
		configLimit{"text_config.max_position_embeddings", t.MaxPositionEmbeddings, maxPositions},
		configLimit{"vision_config.image_size", v.ImageSize, maxImageSize},
		configLimit{"vision_config.patch_size", v.PatchSize, v.ImageSize},
		configLimit{"vision_config.num_channels", v.NumChannels, maxChannels}); err != nil {
		return err
	}
	for _, tower := range []struct {
		name string
		c    *CLIPTowerConfig
	}{{"text_config", t}, {"vision_config", v}} {
		c := tower.c
		if err := checkLimits(what,
			configLimit{tower.name + ".hidden_size", c.HiddenSize, maxWidth},
			configLimit{tower.name + ".intermediate_size", c.IntermediateSize, maxWidth},
			configLimit{tower.name + ".num_hidden_layers", c.NumHiddenLayers, maxLayers},
			configLimit{tower.name + ".num_attention_heads", c.NumAttentionHeads, maxHeads}); err != nil {
			return err
		}
		if c.HiddenSize%c.NumAttentionHeads != 0 {
			return fmt.Errorf("%s: %s.hidden_size %d is not a multiple of num_attention_heads %d", what, tower.name, c.HiddenSize, c.NumAttentionHeads)
		}
	}
	if v.ImageSize%v.PatchSize != 0 {
		return fmt.Errorf("%s: vision_config.image_size %d is not a multiple of patch_size %d", what, v.ImageSize, v.PatchSize)
	}
	p, P := clipParams, v.PatchSize
	n := (v.ImageSize / P) * (v.ImageSize / P)
	lastFC1 := func(tower string, c *CLIPTowerConfig) string {
		return tower + fmt.Sprintf(p.fc1, c.NumHiddenLayers-1) + ".weight"
	}
	return r.checkShapes(what,
		shapeCheck{p.text + p.tokenEmb, []int{t.VocabSize, t.HiddenSize}, "text_config.vocab_size and hidden_size"},
		shapeCheck{p.text + p.textPos, []int{t.MaxPositionEmbeddings, t.HiddenSize}, "text_config.max_position_embeddings and hidden_size"},
		shapeCheck{lastFC1(p.text, t), []int{t.IntermediateSize, t.HiddenSize}, "text_config.num_hidden_layers, intermediate_size and hidden_size"},
		shapeCheck{p.vision + p.classEmb, []int{v.HiddenSize}, "vision_config.hidden_size"},
		shapeCheck{p.vision + p.visionPos, []int{n + 1, v.HiddenSize}, "vision_config.image_size, patch_size and hidden_size"},
		shapeCheck{p.vision + p.patch + ".weight", []int{v.HiddenSize, v.NumChannels, P, P}, "vision_config.hidden_size, num_channels and patch_size"},
		shapeCheck{lastFC1(p.vision, v), []int{v.IntermediateSize, v.HiddenSize}, "vision_config.num_hidden_layers, intermediate_size and hidden_size"},
		shapeCheck{p.textProj + ".weight", []int{c.ProjectionDim, t.HiddenSize}, "projection_dim and text_config.hidden_size"},
		shapeCheck{p.visualProj + ".weight", []int{c.ProjectionDim, v.HiddenSize}, "projection_dim and vision_config.hidden_size"})
}
