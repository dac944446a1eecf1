package main

// Inputs of the score-vs-command benchmarks: full-size models with random
// weights written as the files a user would have (safetensors, config.json),
// synthetic region crops, and a GloVe file and an idf pickle covering the
// stories' nouns.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/safetensors"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// randomTensor is a tensor of shape initialised as BERT-style models are:
// LayerNorm weights 1, biases 0, CLIP's logit_scale ln(1/0.07), everything
// else normal(0, 0.02).
func randomTensor(rng *rand.Rand, name string, shape ...int) safetensors.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		switch {
		case strings.HasSuffix(name, ".bias"):
		case (strings.Contains(name, "norm") || strings.Contains(name, "layrnorm")) && strings.HasSuffix(name, ".weight"):
			data[i] = 1
		case name == "logit_scale":
			data[i] = float32(math.Log(1 / 0.07))
		default:
			data[i] = float32(rng.NormFloat64() * 0.02)
		}
	}
	return safetensors.Tensor{Name: name, Shape: shape, F32: data}
}

// writeJSONFile writes v as JSON to path.
func writeJSONFile(b *testing.B, path string, v any) string {
	b.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// writeRandomRoViSTVG writes a RoViST-VG state_dict of
// google/vit-base-patch16-224-in21k's shape with random weights
// (checkpoint) and the ViT folder (config.json, preprocessor_config.json)
// that goes with it.
func writeRandomRoViSTVG(b *testing.B, dir string) (checkpoint, vitDir string) {
	b.Helper()
	qkv := true
	cfg := encoders.ViTConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072, HiddenAct: "gelu",
		ImageSize: 224, PatchSize: 16, NumChannels: 3, LayerNormEps: 1e-12, QKVBias: &qkv}
	vitDir = filepath.Join(dir, "vit-base-patch16-224-in21k")
	if err := os.MkdirAll(vitDir, 0o755); err != nil {
		b.Fatal(err)
	}
	writeJSONFile(b, filepath.Join(vitDir, "config.json"), cfg)
	// The published preprocessor_config.json of the model.
	writeJSONFile(b, filepath.Join(vitDir, "preprocessor_config.json"), map[string]any{
		"do_normalize": true, "do_resize": true, "image_mean": []float64{0.5, 0.5, 0.5}, "image_std": []float64{0.5, 0.5, 0.5},
		"feature_extractor_type": "ViTFeatureExtractor", "resample": 2, "size": 224})
	rng := rand.New(rand.NewSource(1))
	H, I := cfg.HiddenSize, cfg.IntermediateSize
	var ts []safetensors.Tensor
	add := func(name string, shape ...int) { ts = append(ts, randomTensor(rng, name, shape...)) }
	linear := func(name string, out, in int) { add(name+".weight", out, in); add(name+".bias", out) }
	norm := func(name string, n int) { add(name+".weight", n); add(name+".bias", n) }
	p := "image_encoder.image_model."
	add(p+"embeddings.cls_token", 1, 1, H)
	add(p+"embeddings.position_embeddings", 1, (224/16)*(224/16)+1, H)
	add(p+"embeddings.patch_embeddings.projection.weight", H, 3, 16, 16)
	add(p+"embeddings.patch_embeddings.projection.bias", H)
	for l := range cfg.NumHiddenLayers {
		lp := fmt.Sprintf("%sencoder.layer.%d.", p, l)
		for _, n := range []string{"attention.attention.query", "attention.attention.key", "attention.attention.value", "attention.output.dense"} {
			linear(lp+n, H, H)
		}
		linear(lp+"intermediate.dense", I, H)
		linear(lp+"output.dense", H, I)
		norm(lp+"layernorm_before", H)
		norm(lp+"layernorm_after", H)
	}
	norm(p+"layernorm", H)
	linear(p+"pooler.dense", H, H)
	linear("image_encoder.linear", 1024, H)
	linear("text_encoder.linear", 1024, 300)
	checkpoint = filepath.Join(dir, "r2p_model_epoch2.safetensors")
	if err := safetensors.WriteFile(checkpoint, ts, nil); err != nil {
		b.Fatal(err)
	}
	return checkpoint, vitDir
}

// writeRandomCLIP writes openai/clip-vit-base-patch32's config.json and a
// model.safetensors of its shape with random weights into dir, and links
// the real CLIP BPE vocabulary (from the repository's tokenizer fixtures)
// next to them, so that dir is a complete CLIP folder.
func writeRandomCLIP(b *testing.B, dir string) {
	b.Helper()
	cfg := encoders.CLIPConfig{
		ProjectionDim: 512,
		TextConfig: encoders.CLIPTowerConfig{VocabSize: 49408, HiddenSize: 512, NumHiddenLayers: 12, NumAttentionHeads: 8,
			IntermediateSize: 2048, MaxPositionEmbeddings: 77, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
		VisionConfig: encoders.CLIPTowerConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
			ImageSize: 224, PatchSize: 32, NumChannels: 3, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	writeJSONFile(b, filepath.Join(dir, "config.json"), cfg)
	rng := rand.New(rand.NewSource(1))
	var ts []safetensors.Tensor
	add := func(name string, shape ...int) { ts = append(ts, randomTensor(rng, name, shape...)) }
	tower := func(prefix string, c encoders.CLIPTowerConfig) {
		H, I := c.HiddenSize, c.IntermediateSize
		for l := range c.NumHiddenLayers {
			p := fmt.Sprintf("%s.encoder.layers.%d.", prefix, l)
			for _, proj := range []string{"k_proj", "v_proj", "q_proj", "out_proj"} {
				add(p+"self_attn."+proj+".weight", H, H)
				add(p+"self_attn."+proj+".bias", H)
			}
			add(p+"layer_norm1.weight", H)
			add(p+"layer_norm1.bias", H)
			add(p+"mlp.fc1.weight", I, H)
			add(p+"mlp.fc1.bias", I)
			add(p+"mlp.fc2.weight", H, I)
			add(p+"mlp.fc2.bias", H)
			add(p+"layer_norm2.weight", H)
			add(p+"layer_norm2.bias", H)
		}
	}
	t, v := cfg.TextConfig, cfg.VisionConfig
	add("logit_scale")
	add("text_model.embeddings.token_embedding.weight", t.VocabSize, t.HiddenSize)
	add("text_model.embeddings.position_embedding.weight", t.MaxPositionEmbeddings, t.HiddenSize)
	tower("text_model", t)
	add("text_model.final_layer_norm.weight", t.HiddenSize)
	add("text_model.final_layer_norm.bias", t.HiddenSize)
	n := v.ImageSize / v.PatchSize
	add("vision_model.embeddings.class_embedding", v.HiddenSize)
	add("vision_model.embeddings.patch_embedding.weight", v.HiddenSize, v.NumChannels, v.PatchSize, v.PatchSize)
	add("vision_model.embeddings.position_embedding.weight", n*n+1, v.HiddenSize)
	add("vision_model.pre_layrnorm.weight", v.HiddenSize)
	add("vision_model.pre_layrnorm.bias", v.HiddenSize)
	tower("vision_model", v)
	add("vision_model.post_layernorm.weight", v.HiddenSize)
	add("vision_model.post_layernorm.bias", v.HiddenSize)
	add("visual_projection.weight", cfg.ProjectionDim, v.HiddenSize)
	add("text_projection.weight", cfg.ProjectionDim, t.HiddenSize)
	if err := safetensors.WriteFile(filepath.Join(dir, "model.safetensors"), ts, nil); err != nil {
		b.Fatal(err)
	}
	tokDir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"vocab.json.gz", "merges.txt.gz"} {
		if err := os.Symlink(filepath.Join(tokDir, f), filepath.Join(dir, f)); err != nil {
			b.Fatal(err)
		}
	}
}

// writeRegionCrops writes, for every image id, perImage JPEG crops of 60–160
// × 40–120 pixels named as the VIST-entities folder names them, and the
// regions CSV (image_id,bbox) listing them; it returns the CSV path and
// the crops folder.
func writeRegionCrops(b *testing.B, dir string, imageIDs []string, perImage int) (csvPath, crops string) {
	b.Helper()
	crops = filepath.Join(dir, "crops")
	if err := os.MkdirAll(crops, 0o755); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(4))
	var csv strings.Builder
	csv.WriteString("image_id,bbox\n")
	for _, id := range imageIDs {
		for k := range perImage {
			w, h := 60+rng.Intn(100), 40+rng.Intn(80)
			box := fmt.Sprintf("[%d.0, 0.0, %d.0, %d.0]", k, k+w, h)
			fmt.Fprintf(&csv, "%s,\"%s\"\n", id, box)
			img := image.NewRGBA(image.Rect(0, 0, w, h))
			for y := range h {
				for x := range w {
					img.Set(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), uint8(rng.Intn(256)), 255})
				}
			}
			var jb bytes.Buffer
			if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 90}); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(crops, id+"_"+box+".jpg"), jb.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	csvPath = filepath.Join(dir, "vist_entities.csv")
	if err := os.WriteFile(csvPath, []byte(csv.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return csvPath, crops
}

// writeNounTables writes a GloVe text file with a random 300-d vector for
// every noun of stories (and GloVe's "unk") and idf_dict.pkl, a pickled
// dict {noun: idf} covering the same nouns, as the RoViST release has them.
func writeNounTables(b *testing.B, dir string, stories []story.Story) (glovePath, idfPath string) {
	b.Helper()
	nouns, err := rovist.StoryNouns(stories, nil)
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for _, ns := range nouns {
		words = append(words, ns...)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	rng := rand.New(rand.NewSource(5))
	var gb strings.Builder
	for _, w := range append(slices.Clone(words), rovist.GloVeUnknown) {
		gb.WriteString(w)
		for range 300 {
			fmt.Fprintf(&gb, " %.6f", rng.NormFloat64()*0.3)
		}
		gb.WriteByte('\n')
	}
	glovePath = filepath.Join(dir, "glove.6B.300d.txt")
	if err := os.WriteFile(glovePath, []byte(gb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	// Pickle protocol 2: PROTO 2, EMPTY_DICT, MARK, (BINUNICODE key,
	// BINFLOAT value)..., SETITEMS, STOP.
	pk := []byte{0x80, 2, '}', '('}
	for _, w := range words {
		pk = append(pk, 'X')
		pk = binary.LittleEndian.AppendUint32(pk, uint32(len(w)))
		pk = append(pk, w...)
		pk = append(pk, 'G')
		pk = binary.BigEndian.AppendUint64(pk, math.Float64bits(1+3*rng.Float64()))
	}
	pk = append(pk, 'u', '.')
	idfPath = filepath.Join(dir, "idf_dict.pkl")
	if err := os.WriteFile(idfPath, pk, 0o644); err != nil {
		b.Fatal(err)
	}
	return glovePath, idfPath
}

// linkModels makes a models folder in dir holding symbolic links
// (relative path in the layout → target).
func linkModels(b *testing.B, dir string, links map[string]string) string {
	b.Helper()
	models := filepath.Join(dir, "models")
	for link, target := range links {
		p := filepath.Join(models, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			b.Fatal(err)
		}
	}
	return models
}

// mkdir creates dir (and its parents) and returns it.
func mkdir(b *testing.B, dir string) string {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	return dir
}
