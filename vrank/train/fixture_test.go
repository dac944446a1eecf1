package train

import (
	"context"
	"encoding/json"
	"github.com/storyeval/storyeval/vrank"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
)

// vrankFixture is the reference fixture set: index.json, expected.json,
// pairs.json and the arrays they name.
type vrankFixture struct {
	dir   string
	index struct {
		Model struct {
			NParams int `json:"n_params"`
		} `json:"model"`
		TrainStep struct {
			Grads map[string]string `json:"grads"`
		} `json:"train_step"`
		Arrays map[string]struct {
			File  string `json:"file"`
			Shape []int  `json:"shape"`
		} `json:"arrays"`
	}
	expected struct {
		Predictions     []float64 `json:"predictions"`
		PredictionsFP64 []float64 `json:"predictions_fp64"`
		TrainStep       struct {
			BatchRows   []int     `json:"batch_rows"`
			Targets     []float64 `json:"targets"`
			Predictions []float64 `json:"predictions"`
			Loss        float64   `json:"loss"`
		} `json:"train_step"`
	}
	pairs []struct {
		Sent1 string `json:"sent1"`
		Sent2 string `json:"sent2"`
	}
	// checked records every array name and expected.json key compared.
	checked map[string]bool
}

func loadVrankFixture(t *testing.T) *vrankFixture {
	t.Helper()
	dir := e2efixtures.Metric("vrank")
	t.Logf("fixture folder: %s", dir)
	f := &vrankFixture{dir: dir, checked: map[string]bool{}}
	for name, v := range map[string]any{"index.json": &f.index, "expected.json": &f.expected, "pairs.json": &f.pairs} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return f
}

// array reads an array named in index.json and checks its shape.
func (f *vrankFixture) array(t *testing.T, name string) *npy.Array {
	t.Helper()
	entry, ok := f.index.Arrays[name]
	if !ok {
		t.Fatalf("index.json names no array %q", name)
	}
	a, err := npy.ReadFile(filepath.Join(f.dir, entry.File))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Shape, entry.Shape) && !(len(a.Shape) == 0 && len(entry.Shape) == 0) {
		t.Fatalf("%s: shape %v, index.json says %v", name, a.Shape, entry.Shape)
	}
	f.checked[name] = true
	return a
}

// expectUnchecked fails for every array of index.json and key of
// expected.json that no comparison read.
func (f *vrankFixture) expectAllChecked(t *testing.T) {
	t.Helper()
	var missing []string
	for name := range f.index.Arrays {
		if !f.checked[name] {
			missing = append(missing, "array "+name)
		}
	}
	for _, key := range append(f.expectedKeys(t), "n_params") {
		if !f.checked[key] {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("expected values left unchecked: %s", strings.Join(missing, ", "))
	}
}

// expectedKeys lists every value of expected.json: top-level keys, and
// "object.key" for the keys of nested objects.
func (f *vrankFixture) expectedKeys(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k, raw := range top {
		var nested map[string]json.RawMessage
		if json.Unmarshal(raw, &nested) == nil {
			for k2 := range nested {
				keys = append(keys, k+"."+k2)
			}
			continue
		}
		keys = append(keys, k)
	}
	return keys
}

func TestFixture(t *testing.T) {
	f := loadVrankFixture(t)
	m, err := vrank.Load(filepath.Join(f.dir, "model"))
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := make([]string, len(f.pairs)), make([]string, len(f.pairs))
	for i, p := range f.pairs {
		s1[i], s2[i] = p.Sent1, p.Sent2
	}
	t.Run("params", func(t *testing.T) {
		n := 0
		for _, w := range m.Weights() {
			n += len(w.Data)
		}
		if n != f.index.Model.NParams {
			t.Errorf("%d parameters, index.json says %d", n, f.index.Model.NParams)
		}
		f.checked["n_params"] = true
	})
	t.Run("inputs", func(t *testing.T) {
		encs, err := m.Encode(s1, s2)
		if err != nil {
			t.Fatal(err)
		}
		ids, mask := f.array(t, "input_ids"), f.array(t, "attention_mask")
		L := ids.Shape[1]
		if ids.Shape[0] != len(encs) {
			t.Fatalf("%d rows of input_ids for %d pairs", ids.Shape[0], len(encs))
		}
		same := 0
		for i, e := range encs {
			ok := e.Len() <= L
			for j := 0; ok && j < L; j++ {
				wantID, wantMask := ids.I64[i*L+j], mask.I64[i*L+j]
				gotID, gotMask, gotType := int64(0), int64(0), 0
				if j < e.Len() {
					gotID, gotMask, gotType = int64(e.IDs[j]), int64(e.AttentionMask[j]), e.TypeIDs[j]
				}
				ok = gotID == wantID && gotMask == wantMask && gotType == 0
			}
			if !ok {
				t.Errorf("pair %d: input ids or mask differ from the fixture (%d tokens)", i, e.Len())
				continue
			}
			same++
		}
		t.Logf("input ids and masks: %d/%d pairs identical (%d positions each)", same, len(encs), L)
	})
	t.Run("predictions", func(t *testing.T) {
		got, err := m.Predict(context.Background(), s1, s2)
		if err != nil {
			t.Fatal(err)
		}
		want := f.expected.Predictions
		f.checked["predictions"] = true
		f.checked["predictions_fp64"] = true
		if len(want) != len(got) || len(f.expected.PredictionsFP64) != len(got) {
			t.Fatalf("%d predictions, expected.json has %d (fp64: %d)", len(got), len(want), len(f.expected.PredictionsFP64))
		}
		// arrays/predictions.npy, where the generator writes it, holds the
		// same values as expected.json.
		if arr, err := npy.ReadFile(filepath.Join(f.dir, "arrays", "predictions.npy")); err == nil {
			for i, v := range arr.Float64s() {
				if i >= len(want) || float32(v) != float32(want[i]) {
					t.Errorf("arrays/predictions.npy[%d] = %v differs from expected.json", i, v)
				}
			}
		}
		worst, worstFP64 := 0.0, 0.0
		for i := range got {
			d := math.Abs(got[i] - want[i])
			worst = math.Max(worst, d)
			worstFP64 = math.Max(worstFP64, math.Abs(got[i]-f.expected.PredictionsFP64[i]))
			if d > 1e-5 {
				t.Errorf("pair %d: prediction %.8g, want %.8g", i, got[i], want[i])
			}
		}
		t.Logf("predictions: %d within 1e-5, max |Δ| %.3g vs float32 reference, %.3g vs fp64 reference", len(got), worst, worstFP64)
	})
	t.Run("train_step", func(t *testing.T) { checkTrainStep(t, f, s1, s2) })
	f.expectAllChecked(t)
}
