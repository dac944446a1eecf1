package randmodel

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/nn"
)

// ViTB16In21k is google/vit-base-patch16-224-in21k's configuration, the
// image encoder of RoViST-VG.
func ViTB16In21k() encoders.ViTConfig {
	qkv := true
	return encoders.ViTConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072, HiddenAct: "gelu",
		ImageSize: 224, PatchSize: 16, NumChannels: 3, LayerNormEps: 1e-12, QKVBias: &qkv}
}

// ViTIn21kPreprocessor is the published preprocessor_config.json of
// google/vit-base-patch16-224-in21k.
func ViTIn21kPreprocessor() map[string]any {
	return map[string]any{"do_normalize": true, "do_resize": true, "image_mean": []float64{0.5, 0.5, 0.5}, "image_std": []float64{0.5, 0.5, 0.5},
		"feature_extractor_type": "ViTFeatureExtractor", "resample": 2, "size": 224}
}

// RoViSTVGParams lists the state_dict of RoViST-VG's released model for a
// ViT of cfg: the ViT (with pooler) under image_encoder.image_model, and
// the two 1024-d projections of images and 300-d GloVe nouns.
func RoViSTVGParams(cfg encoders.ViTConfig) []Param {
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	n := cfg.ImageSize / cfg.PatchSize
	p := "image_encoder.image_model."
	out := []Param{
		{p + "embeddings.cls_token", []int{1, 1, H}},
		{p + "embeddings.position_embeddings", []int{1, n*n + 1, H}},
		{p + "embeddings.patch_embeddings.projection.weight", []int{H, cfg.NumChannels, cfg.PatchSize, cfg.PatchSize}},
		{p + "embeddings.patch_embeddings.projection.bias", []int{H}},
	}
	for l := range cfg.NumHiddenLayers {
		lp := fmt.Sprintf("%sencoder.layer.%d.", p, l)
		for _, name := range []string{"attention.attention.query", "attention.attention.key", "attention.attention.value", "attention.output.dense"} {
			out = append(out, Linear(lp+name, H, H)...)
		}
		out = append(out, Linear(lp+"intermediate.dense", I, H)...)
		out = append(out, Linear(lp+"output.dense", H, I)...)
		out = append(out, Norm(lp+"layernorm_before", H)...)
		out = append(out, Norm(lp+"layernorm_after", H)...)
	}
	out = append(out, Norm(p+"layernorm", H)...)
	out = append(out, Linear(p+"pooler.dense", H, H)...)
	out = append(out, Linear("image_encoder.linear", 1024, H)...)
	return append(out, Linear("text_encoder.linear", 1024, 300)...)
}

// RoViSTCParams lists the state_dict of RoViST-C's released model for an
// ALBERT of cfg (one shared layer group): the ALBERT with pooler under
// albert_model and the two-way sentence-order head.
func RoViSTCParams(cfg encoders.ALBERTConfig) []Param {
	d := cfg.Shape()
	d.Groups, d.InnerLayers = 1, 1 // RoViST-C's ALBERT: one shared layer
	var out []Param
	for _, p := range nn.ALBERTLayout(d, true, "albert_model.") {
		out = append(out, Param{p.Name, p.Shape})
	}
	return append(out, Linear("linear", 2, cfg.HiddenSize)...)
}
