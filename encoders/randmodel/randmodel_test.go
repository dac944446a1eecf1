package randmodel_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/randmodel"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
)

// tinyCLIP is CLIPB32 with small towers, so the test stays fast.
func tinyCLIP() encoders.CLIPConfig {
	cfg := randmodel.CLIPB32()
	cfg.ProjectionDim = 16
	cfg.TextConfig.HiddenSize, cfg.TextConfig.IntermediateSize, cfg.TextConfig.NumHiddenLayers, cfg.TextConfig.NumAttentionHeads = 16, 32, 2, 2
	cfg.TextConfig.VocabSize = 300
	cfg.VisionConfig.HiddenSize, cfg.VisionConfig.IntermediateSize, cfg.VisionConfig.NumHiddenLayers, cfg.VisionConfig.NumAttentionHeads = 16, 32, 2, 2
	return cfg
}

// TestWriteCLIPLoads checks that the written folder is a CLIP model the
// encoders load (every parameter present with its shape) and that values
// follow the initialisation rule.
func TestWriteCLIPLoads(t *testing.T) {
	dir := t.TempDir()
	if err := randmodel.WriteCLIP(dir, tinyCLIP(), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := encoders.LoadCLIP(dir); err != nil {
		t.Fatalf("LoadCLIP: %v", err)
	}
	st, err := checkpoint.Open(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, want := st.Len(), len(randmodel.CLIPParams(tinyCLIP())); n != want {
		t.Errorf("%d tensors, want %d", n, want)
	}
	values := func(name string) []float32 {
		info, ok := st.Info(name)
		if !ok {
			t.Fatalf("no tensor %s", name)
		}
		n := 1
		for _, d := range info.Shape {
			n *= d
		}
		dst := make([]float32, n)
		if err := st.ReadFloat32(name, dst); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	for _, v := range values("vision_model.pre_layrnorm.weight") {
		if v != 1 {
			t.Fatalf("layer norm weight %v, want 1", v)
		}
	}
	for _, v := range values("text_model.encoder.layers.0.mlp.fc1.bias") {
		if v != 0 {
			t.Fatalf("bias %v, want 0", v)
		}
	}
	if v := values("logit_scale")[0]; v != float32(math.Log(1/0.07)) {
		t.Errorf("logit_scale %v, want ln(1/0.07)", v)
	}
	w := values("text_model.embeddings.token_embedding.weight")
	var sum, sq float64
	for _, v := range w {
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	mean := sum / float64(len(w))
	if sd := math.Sqrt(sq/float64(len(w)) - mean*mean); math.Abs(sd-0.02) > 0.001 || math.Abs(mean) > 0.001 {
		t.Errorf("weights mean %v sd %v, want ≈ 0 and 0.02", mean, sd)
	}
	// Seeded: the same seed writes the same file, another seed another.
	again := t.TempDir()
	if err := randmodel.WriteCLIP(again, tinyCLIP(), 1); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "model.safetensors"))
	b, _ := os.ReadFile(filepath.Join(again, "model.safetensors"))
	if string(a) != string(b) {
		t.Error("the same seed wrote different files")
	}
}

// TestWriteSafetensorsRejectsDuplicates: a name listed twice is an error.
func TestWriteSafetensorsRejectsDuplicates(t *testing.T) {
	params := append(randmodel.Linear("a", 2, 2), randmodel.Param{Name: "a.bias", Shape: []int{2}})
	if err := randmodel.WriteSafetensors(filepath.Join(t.TempDir(), "x.safetensors"), params, 1); err == nil {
		t.Error("no error for a duplicated tensor name")
	}
}

// TestRoViSTCheckpointsLoad checks that the RoViST-VG and RoViST-C
// parameter lists are what the rovist loaders read, on small configs.
func TestRoViSTCheckpointsLoad(t *testing.T) {
	dir := t.TempDir()
	vit := randmodel.ViTB16In21k()
	vit.HiddenSize, vit.IntermediateSize, vit.NumHiddenLayers, vit.NumAttentionHeads = 16, 32, 2, 2
	vitDir := filepath.Join(dir, "vit")
	if err := os.MkdirAll(vitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(vitDir, "config.json"), vit)
	writeJSON(t, filepath.Join(vitDir, "preprocessor_config.json"), randmodel.ViTIn21kPreprocessor())
	vg := filepath.Join(dir, "vg.safetensors")
	if err := randmodel.WriteSafetensors(vg, randmodel.RoViSTVGParams(vit), 2); err != nil {
		t.Fatal(err)
	}
	if _, err := rovist.LoadGroundingModel(vg, vitDir); err != nil {
		t.Errorf("LoadGroundingModel: %v", err)
	}

	albert := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 8, HiddenSize: 16, NumHiddenLayers: 2, NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 2, IntermediateSize: 32, HiddenAct: "gelu_new", MaxPositionEmbeddings: 64, TypeVocabSize: 2, LayerNormEps: 1e-12}
	albertDir := filepath.Join(dir, "albert")
	if err := os.MkdirAll(albertDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"model_type": "albert", "vocab_size": albert.VocabSize, "embedding_size": albert.EmbeddingSize, "hidden_size": albert.HiddenSize,
		"num_hidden_layers": albert.NumHiddenLayers, "num_hidden_groups": 1, "inner_group_num": 1, "num_attention_heads": albert.NumAttentionHeads,
		"intermediate_size": albert.IntermediateSize, "hidden_act": albert.HiddenAct, "max_position_embeddings": albert.MaxPositionEmbeddings,
		"type_vocab_size": albert.TypeVocabSize, "layer_norm_eps": albert.LayerNormEps}
	writeJSON(t, filepath.Join(albertDir, "config.json"), cfg)
	spiece, err := filepath.Abs(filepath.Join("..", "..", "testdata", "e2e", "rovist_c", "albert-large-v1", "spiece.model"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(spiece, filepath.Join(albertDir, "spiece.model")); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c.safetensors")
	if err := randmodel.WriteSafetensors(c, randmodel.RoViSTCParams(albert), 3); err != nil {
		t.Fatal(err)
	}
	if _, err := rovist.LoadCoherenceModel(c, albertDir); err != nil {
		t.Errorf("LoadCoherenceModel: %v", err)
	}
}

// TestWriteGradientJPEG checks the image's size and that two draws differ.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCLIPParamsMatchFixture checks CLIPParams against the parameter list
// of the e2e fixtures' CLIP (HF CLIPModel; its position_ids buffers aside),
// for the fixture's configuration: same names, same shapes.
func TestCLIPParamsMatchFixture(t *testing.T) {
	dir := e2efixtures.Metric("clip")
	t.Logf("fixtures: %s", dir)
	var cfg encoders.CLIPConfig
	if err := encoders.LoadConfig(dir, &cfg); err != nil {
		t.Fatal(err)
	}
	var index struct {
		Tensors map[string]struct {
			Shape []int `json:"shape"`
		} `json:"tensors"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "weights_index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	ours := map[string][]int{}
	for _, p := range randmodel.CLIPParams(cfg) {
		ours[p.Name] = p.Shape
	}
	checked := 0
	for name, ti := range index.Tensors {
		if filepath.Ext(name) == ".position_ids" {
			continue
		}
		if got, ok := ours[name]; !ok || !slices.Equal(got, ti.Shape) {
			t.Errorf("%s: ours %v, fixture %v", name, got, ti.Shape)
		}
		delete(ours, name)
		checked++
	}
	for name := range ours {
		t.Errorf("%s: not a parameter of the fixture model", name)
	}
	if checked == 0 {
		t.Fatal("the fixture lists no tensors")
	}
	t.Logf("%d parameters checked", checked)
}

// TestWriteRegionCropsReadable checks that GROOViST's entities reader
// lists every written region and that each crop file is where CropPath
// looks and decodes as a JPEG of the box's size.
