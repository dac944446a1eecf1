package randmodel

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
)

// CLIPB32 is openai/clip-vit-base-patch32's configuration.
func CLIPB32() encoders.CLIPConfig {
	return encoders.CLIPConfig{
		ProjectionDim: 512,
		TextConfig: encoders.CLIPTowerConfig{VocabSize: 49408, HiddenSize: 512, NumHiddenLayers: 12, NumAttentionHeads: 8,
			IntermediateSize: 2048, MaxPositionEmbeddings: 77, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
		VisionConfig: encoders.CLIPTowerConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
			ImageSize: 224, PatchSize: 32, NumChannels: 3, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
	}
}

// CLIPParams lists Hugging Face CLIPModel's parameters for cfg.
func CLIPParams(cfg encoders.CLIPConfig) []Param {
	var out []Param
	add := func(name string, shape ...int) { out = append(out, Param{name, shape}) }
	tower := func(prefix string, c encoders.CLIPTowerConfig) {
		H, I := c.HiddenSize, c.IntermediateSize
		for l := range c.NumHiddenLayers {
			p := fmt.Sprintf("%s.encoder.layers.%d.", prefix, l)
			for _, proj := range []string{"k_proj", "v_proj", "q_proj", "out_proj"} {
				out = append(out, Linear(p+"self_attn."+proj, H, H)...)
			}
			out = append(out, Norm(p+"layer_norm1", H)...)
			out = append(out, Linear(p+"mlp.fc1", I, H)...)
			out = append(out, Linear(p+"mlp.fc2", H, I)...)
			out = append(out, Norm(p+"layer_norm2", H)...)
		}
	}
	t, v := cfg.TextConfig, cfg.VisionConfig
	add("logit_scale")
	add("text_model.embeddings.token_embedding.weight", t.VocabSize, t.HiddenSize)
	add("text_model.embeddings.position_embedding.weight", t.MaxPositionEmbeddings, t.HiddenSize)
	tower("text_model", t)
	out = append(out, Norm("text_model.final_layer_norm", t.HiddenSize)...)
	n := v.ImageSize / v.PatchSize
	add("vision_model.embeddings.class_embedding", v.HiddenSize)
	add("vision_model.embeddings.patch_embedding.weight", v.HiddenSize, v.NumChannels, v.PatchSize, v.PatchSize)
	add("vision_model.embeddings.position_embedding.weight", n*n+1, v.HiddenSize)
	out = append(out, Norm("vision_model.pre_layrnorm", v.HiddenSize)...)
	tower("vision_model", v)
	out = append(out, Norm("vision_model.post_layernorm", v.HiddenSize)...)
	add("visual_projection.weight", cfg.ProjectionDim, v.HiddenSize)
	add("text_projection.weight", cfg.ProjectionDim, t.HiddenSize)
	return out
}

// WriteCLIP writes a CLIP model folder's config.json and a random
// model.safetensors for cfg into dir (created). The tokenizer files are
// the caller's: encoders.LoadCLIP needs only these two.
func WriteCLIP(dir string, cfg encoders.CLIPConfig, seed int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, "config.json"), cfg); err != nil {
		return err
	}
	return WriteSafetensors(filepath.Join(dir, "model.safetensors"), CLIPParams(cfg), seed)
}
