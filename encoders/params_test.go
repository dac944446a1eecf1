package encoders

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/dense"
	"gorgonia.org/tensor"
)

// TestParamsSaveLoadIdentical builds each architecture with random weights,
// saves its parameter walk (Params) as safetensors, loads the file back and
// builds the model again from memory (ParamWeights): the parameters and the
// forward outputs must be bit-identical, and the names must be the
// checkpoint names the loader reads.
func TestParamsSaveLoadIdentical(t *testing.T) {
	ctx := context.Background()
	encs := randomEncodings(2, 9, 50, 1)
	encs[1].AttentionMask[8] = 0
	imgs := randomImages(2, 8, 2)
	bcfg := BERTConfig{VocabSize: 50, HiddenSize: 8, NumHiddenLayers: 2, NumAttentionHeads: 2, IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	acfg := ALBERTConfig{VocabSize: 50, EmbeddingSize: 4, HiddenSize: 8, NumHiddenLayers: 2, NumAttentionHeads: 2, IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	vcfg := ViTConfig{HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2, IntermediateSize: 16, ImageSize: 8, PatchSize: 4}
	tower := CLIPTowerConfig{HiddenSize: 8, IntermediateSize: 16, NumHiddenLayers: 1, NumAttentionHeads: 2}
	text, vision := tower, tower
	text.VocabSize, text.MaxPositionEmbeddings = 50, 16
	vision.ImageSize, vision.PatchSize = 8, 4
	ccfg := CLIPConfig{TextConfig: text, VisionConfig: vision, ProjectionDim: 6}

	type built struct {
		params []nn.Param[float32]
		out    []*tensor.Dense
	}
	cases := []struct {
		name  string
		probe string
		build func(w Weights) (built, error)
	}{
		{"BERT", "encoder.layer.1.output.LayerNorm.bias", func(w Weights) (built, error) {
			m, err := NewBERTFrom(bcfg, w)
			if err != nil {
				return built{}, err
			}
			o, err := m.Forward(ctx, encs, ForwardOptions{})
			return built{m.Params(), []*tensor.Dense{o.LastHiddenState, o.PoolerOutput}}, err
		}},
		{"ALBERT", "encoder.embedding_hidden_mapping_in.weight", func(w Weights) (built, error) {
			m, err := NewALBERTFrom(acfg, w)
			if err != nil {
				return built{}, err
			}
			o, err := m.Forward(ctx, encs, ForwardOptions{})
			return built{m.Params(), []*tensor.Dense{o.LastHiddenState, o.PoolerOutput}}, err
		}},
		{"ViT", "embeddings.patch_embeddings.projection.weight", func(w Weights) (built, error) {
			m, err := NewViTFrom(vcfg, w)
			if err != nil {
				return built{}, err
			}
			o, err := m.Forward(ctx, imgs, ForwardOptions{})
			return built{m.Params(), []*tensor.Dense{o.LastHiddenState}}, err
		}},
		{"CLIP", "logit_scale", func(w Weights) (built, error) {
			m, err := NewCLIPFrom(ccfg, w)
			if err != nil {
				return built{}, err
			}
			to, err := m.EncodeText(ctx, encs[:1], ForwardOptions{})
			if err != nil {
				return built{}, err
			}
			io, err := m.EncodeImages(ctx, imgs, ForwardOptions{})
			return built{m.Params(), []*tensor.Dense{to.Embeds, io.Embeds}}, err
		}},
	}
	for _, c := range cases {
		want, err := c.build(RandomWeights(7))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		names := make([]string, len(want.params))
		for i, p := range want.params {
			names[i] = p.Name
		}
		if !slices.Contains(names, c.probe) {
			t.Errorf("%s: the walk has no %q: %v", c.name, c.probe, names)
		}
		path := filepath.Join(t.TempDir(), "model.safetensors")
		var buf bytes.Buffer
		if err := nn.WriteSafetensors(&buf, want.params, nil); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := checkpoint.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		fromFile, err := c.build(CheckpointWeights(st))
		st.Close()
		if err != nil {
			t.Fatalf("%s from file: %v", c.name, err)
		}
		fromMem, err := c.build(ParamWeights(want.params))
		if err != nil {
			t.Fatalf("%s from memory: %v", c.name, err)
		}
		for _, got := range []built{fromFile, fromMem} {
			if len(got.params) != len(want.params) {
				t.Fatalf("%s: %d parameters after the round trip, want %d", c.name, len(got.params), len(want.params))
			}
			for i, p := range got.params {
				if p.Name != want.params[i].Name || !slices.Equal(p.Shape, want.params[i].Shape) || !slices.Equal(p.Data, want.params[i].Data) {
					t.Errorf("%s: parameter %d %s %v differs from %s %v", c.name, i, p.Name, p.Shape, want.params[i].Name, want.params[i].Shape)
				}
			}
			for i, o := range got.out {
				if !slices.Equal(dense.Data(o).([]float32), dense.Data(want.out[i]).([]float32)) {
					t.Errorf("%s: output %d differs after the round trip", c.name, i)
				}
			}
		}
	}
}

// TestParamWeightsRejectsWrongShape checks that an in-memory tensor of the
// wrong shape is an error naming it, not a panic.
func TestParamWeightsRejectsWrongShape(t *testing.T) {
	cfg := BERTConfig{VocabSize: 50, HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2, IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	m, err := NewBERTFrom(cfg, RandomWeights(1))
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Params()
	for i := range ps {
		if ps[i].Name == "encoder.layer.0.attention.self.key.weight" {
			ps[i].Shape = []int{4, 16}
		}
	}
	if _, err := NewBERTFrom(cfg, ParamWeights(ps)); err == nil || !bytes.Contains([]byte(err.Error()), []byte("self.key.weight has shape [4 16] (64 values), want [8 8]")) {
		t.Errorf("wrong shape: err = %v", err)
	}
	if _, err := NewBERTFrom(cfg, ParamWeights(append(ps, ps[0]))); err == nil {
		t.Error("a parameter given twice was accepted")
	}
}

// TestRandomWeightsReproducible checks that one RandomWeights value builds
// the same model every time (it holds a seed, not a generator whose stream
// a first model would consume).
func TestRandomWeightsReproducible(t *testing.T) {
	cfg := BERTConfig{VocabSize: 50, HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2, IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	w := RandomWeights(3)
	a, err := NewBERTFrom(cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBERTFrom(cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := a.Params(), b.Params()
	for i := range pa {
		if !slices.Equal(pa[i].Data, pb[i].Data) {
			t.Fatalf("%s differs between two models of one RandomWeights", pa[i].Name)
		}
	}
	if c, _ := NewBERTFrom(cfg, RandomWeights(4)); slices.Equal(c.Params()[0].Data, pa[0].Data) {
		t.Error("seeds 3 and 4 drew the same word embeddings")
	}
}

// TestSharedParamWeightsAdoptsSlices checks that a CPU model built from
// SharedParamWeights holds the caller's slices (a change to one shows in
// the model's parameters) while ParamWeights copies them.
func TestSharedParamWeightsAdoptsSlices(t *testing.T) {
	cfg := BERTConfig{VocabSize: 50, HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2, IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	m, err := NewBERTFrom(cfg, RandomWeights(1))
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Params()
	shared, err := NewBERTFrom(cfg, SharedParamWeights(ps))
	if err != nil {
		t.Fatal(err)
	}
	copied, err := NewBERTFrom(cfg, ParamWeights(ps))
	if err != nil {
		t.Fatal(err)
	}
	ps[0].Data[0] = 42
	if got := shared.Params()[0].Data[0]; got != 42 {
		t.Errorf("shared model's %s[0] = %g, want the caller's 42", ps[0].Name, got)
	}
	if got := copied.Params()[0].Data[0]; got == 42 {
		t.Errorf("copied model's %s[0] followed the caller's slice", ps[0].Name)
	}
	if _, err := NewBERTFrom(cfg, SharedParamWeights(append(ps, ps[0]))); err == nil {
		t.Error("a parameter given twice was accepted")
	}
}
