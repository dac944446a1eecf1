package encoders

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"gorgonia.org/tensor"
)

// TestLinearHeadOnSubEncoder attaches a head the way a metric does: the
// e2e set's sentence-order checkpoint holds an AlbertModel and an
// nn.Linear(hidden, 2) side by side in one state_dict (the prefixes its
// index lists); the encoder loads from a Sub view, the head with
// LoadLinear, and the head applied to TextOutput.Pooled must give the
// logits the original PyTorch code recorded for every sentence pair.
func TestLinearHeadOnSubEncoder(t *testing.T) {
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", dir)
	var idx struct {
		Files map[string]string `json:"files"`
		Model struct {
			Prefixes []string `json:"state_dict_prefixes"`
		} `json:"model"`
	}
	readJSONFile(t, filepath.Join(dir, "index.json"), &idx)
	var ckpt, cfgDir string
	for name := range idx.Files {
		if strings.HasSuffix(name, ".pth.tar") {
			ckpt = filepath.Join(dir, name)
		} else if strings.HasSuffix(name, "/") {
			cfgDir = filepath.Join(dir, name)
		}
	}
	st, err := checkpoint.Open(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var encoderPrefix, headModule string
	for _, p := range idx.Model.Prefixes {
		if st.Sub("model." + p).Has(nn.ALBERTWordEmbeddings) {
			encoderPrefix = "model." + p
		} else {
			headModule = "model." + strings.TrimSuffix(p, ".")
		}
	}
	var cfg ALBERTConfig
	if err := LoadConfig(cfgDir, &cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := NewALBERT(cfg, st); err == nil {
		t.Errorf("the encoder loaded from the checkpoint root; only %q holds it", encoderPrefix)
	}
	m, err := NewALBERT(cfg, st.Sub(encoderPrefix))
	if err != nil {
		t.Fatal(err)
	}
	head, err := LoadLinear(st, headModule)
	if err != nil {
		t.Fatal(err)
	}
	if head.In() != cfg.HiddenSize || !head.HasBias() {
		t.Fatalf("head %s: in %d (bias %v), want %d with a bias", headModule, head.In(), head.HasBias(), cfg.HiddenSize)
	}
	if _, err := LoadLinear(st, "model.no_such_module"); err == nil {
		t.Error("LoadLinear of a missing module succeeded")
	}
	if _, err := LoadLinear(st, encoderPrefix+"embeddings.LayerNorm"); err == nil {
		t.Error("LoadLinear of a 1-D weight (LayerNorm) succeeded")
	}

	var expected struct {
		Stories map[string]struct {
			Pairs []struct {
				InputIDs  []int     `json:"input_ids"`
				TypeIDs   []int     `json:"token_type_ids"`
				Logits    []float64 `json:"logits"`
				Identical bool      `json:"identical"`
			} `json:"pairs"`
		} `json:"rovist_c"`
	}
	readJSONFile(t, filepath.Join(dir, "expected.json"), &expected)
	checked, worst := 0, 0.0
	for _, s := range expected.Stories {
		for _, p := range s.Pairs {
			if p.Identical || p.Logits == nil {
				continue // never sent to the model
			}
			e := enc(p.InputIDs...)
			e.TypeIDs = p.TypeIDs
			out, err := m.Forward(context.Background(), []tokenize.Encoding{e}, ForwardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			pooled, err := out.Pooled()
			if err != nil {
				t.Fatal(err)
			}
			logits, err := head.Apply(pooled)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := head.ApplyRows(dense.Data(pooled).([]float32))
			if err != nil {
				t.Fatal(err)
			}
			got := dense.Data(logits).([]float32)
			for i, w := range p.Logits {
				worst = max(worst, math.Abs(float64(got[i])-w))
				if rows[i] != got[i] {
					t.Fatalf("ApplyRows %v, Apply %v", rows, got)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no pair logits checked")
	}
	if worst > 1e-5 {
		t.Errorf("%d pairs: logits differ by up to %g", checked, worst)
	}
	t.Logf("%d pairs' logits within %g of PyTorch's", checked, worst)
	if _, err := head.Apply(tensor.New(tensor.WithShape(1, cfg.HiddenSize), tensor.Of(tensor.Float64))); err == nil {
		t.Error("a float64 input was accepted")
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
