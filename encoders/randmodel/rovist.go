package randmodel

import (
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
	out := fromLayout(nn.ViTLayout(cfg.Shape(), true, "image_encoder.image_model."))
	out = append(out, Linear("image_encoder.linear", 1024, cfg.HiddenSize)...)
	return append(out, Linear("text_encoder.linear", 1024, 300)...)
}

// fromLayout converts an architecture's walk (nn.…Layout) to Params.
func fromLayout(ps []nn.Param[float32]) []Param {
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{p.Name, p.Shape}
	}
	return out
}

// RoViSTCParams lists the state_dict of RoViST-C's released model for an
// ALBERT of cfg (one shared layer group): the ALBERT with pooler under
// albert_model and the two-way sentence-order head.
func RoViSTCParams(cfg encoders.ALBERTConfig) []Param {
	d := cfg.Shape()
	d.Groups, d.InnerLayers = 1, 1 // RoViST-C's ALBERT: one shared layer
	return append(fromLayout(nn.ALBERTLayout(d, true, "albert_model.")), Linear("linear", 2, cfg.HiddenSize)...)
}
