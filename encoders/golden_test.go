package encoders

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/npy"
	"gorgonia.org/tensor"
)

// The golden tests discover models, arrays and tolerances from the fixture
// files (fixturedir.Dir(): testdata/encoders/fixtures or $STORYEVAL_ENCODER_FIXTURES):
// manifest.json lists the model directories, each golden/index.json its
// arrays. A golden array must be within max(10 × the index's fp32-vs-fp64
// hint, 1e-5) of our output, absolute.

type goldenArray struct {
	File  string   `json:"file"`
	Shape []int    `json:"shape"`
	Tol   *float64 `json:"tol"`
}

type golden struct {
	t        *testing.T
	dir      string // the golden directory
	modelDir string
	Family   string                 `json:"family"`
	Class    string                 `json:"class"`
	Arrays   map[string]goldenArray `json:"arrays"`
	Hints    map[string]float64     `json:"fp32_vs_fp64_max_abs_diff"`
	checked  map[string]bool
}

type manifest struct {
	Fixtures map[string]struct {
		Dir string `json:"dir"`
	} `json:"fixtures"`
}

// fixtureModels returns the model directories of the fixture set whose
// model_type is family, by fixture name.
func fixtureModels(t *testing.T, family string) map[string]string {
	t.Helper()
	root := fixturedir.Dir()
	data, err := os.ReadFile(filepath.Join(root, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, f := range m.Fixtures {
		dir := filepath.Join(root, f.Dir)
		var cfg struct {
			ModelType string `json:"model_type"`
		}
		if err := LoadConfig(dir, &cfg); err != nil {
			t.Fatalf("fixture %s: %v", name, err)
		}
		if cfg.ModelType != family {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "golden", "index.json")); err != nil {
			continue // a fixture without goldens (e.g. tokenizer-only)
		}
		out[name] = dir
	}
	if len(out) == 0 {
		t.Fatalf("no %s models with goldens in %s", family, root)
	}
	return out
}

func loadGolden(t *testing.T, modelDir string) *golden {
	t.Helper()
	g := &golden{t: t, dir: filepath.Join(modelDir, "golden"), modelDir: modelDir, checked: map[string]bool{}}
	data, err := os.ReadFile(filepath.Join(g.dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, g); err != nil {
		t.Fatal(err)
	}
	return g
}

// weightFiles lists the weight files of the model directory to test with:
// each of model.safetensors, pytorch_model.bin present, and fp16 variants,
// with the golden prefix their outputs carry ("" or "fp16w_").
func (g *golden) weightFiles() map[string]string {
	out := map[string]string{}
	for _, f := range []string{"model.safetensors", "pytorch_model.bin"} {
		if _, err := os.Stat(filepath.Join(g.modelDir, f)); err == nil {
			out[f] = ""
		}
	}
	if _, err := os.Stat(filepath.Join(g.modelDir, "model.fp16.safetensors")); err == nil {
		out["model.fp16.safetensors"] = "fp16w_"
	}
	return out
}

func (g *golden) open(file string) *checkpoint.State {
	st, err := checkpoint.Open(filepath.Join(g.modelDir, file))
	if err != nil {
		g.t.Fatal(err)
	}
	return st
}

// prefixes returns the input prefixes of the index: the part of each array
// name before marker ("single_", "pair_", "" …).
func (g *golden) prefixes(marker string) []string {
	var out []string
	for name := range g.Arrays {
		if strings.HasSuffix(name, marker) && !strings.HasPrefix(name, "fp16w_") {
			out = append(out, strings.TrimSuffix(name, marker))
		}
	}
	sort.Strings(out)
	return out
}

func (g *golden) has(name string) bool { _, ok := g.Arrays[name]; return ok }

func (g *golden) array(name string) *npy.Array {
	g.t.Helper()
	a, ok := g.Arrays[name]
	if !ok {
		g.t.Fatalf("%s: no golden array %q", g.dir, name)
	}
	arr, err := npy.ReadFile(filepath.Join(g.dir, a.File))
	if err != nil {
		g.t.Fatal(err)
	}
	g.checked[name] = true
	return arr
}

// input marks an input array as used and returns it.
func (g *golden) input(name string) *npy.Array { return g.array(name) }

// tol is the tolerance for golden array name.
func (g *golden) tol(name string) float64 {
	hint := 0.0
	if a := g.Arrays[name]; a.Tol != nil {
		hint = *a.Tol
	}
	for key, h := range g.Hints {
		if strings.HasSuffix(name, key) {
			hint = math.Max(hint, h)
		}
	}
	return math.Max(10*hint, 1e-5)
}

// compare checks got against golden array name; an array the index does
// not list is not checked (a fixture set may leave any output out).
func (g *golden) compare(label, name string, got []float32, shape []int) {
	g.t.Helper()
	if !g.has(name) {
		return
	}
	want := g.array(name)
	if !equalShape(want.Shape, shape) {
		g.t.Errorf("%s %s: shape %v, golden %v", label, name, shape, want.Shape)
		return
	}
	w := want.Float64s()
	tol := g.tol(name)
	worst, at := 0.0, 0
	for i := range w {
		if d := math.Abs(float64(got[i]) - w[i]); d > worst || math.IsNaN(d) {
			worst, at = d, i
		}
	}
	if worst > tol || math.IsNaN(worst) {
		g.t.Errorf("%s %s: max |diff| %.3g at %d (got %g, want %g) > tol %.3g", label, name, worst, at, got[at], w[at], tol)
	}
}

// compare64 is compare for float64 results.
func (g *golden) compare64(label, name string, got []float64, shape []int) {
	g.t.Helper()
	f := make([]float32, len(got))
	for i, v := range got {
		f[i] = float32(v)
	}
	g.compare(label, name, f, shape)
}

// done fails the test for golden arrays no check used, and when nothing
// was checked at all.
func (g *golden) done() {
	g.t.Helper()
	g.t.Logf("%s: %d/%d golden arrays checked", g.dir, len(g.checked), len(g.Arrays))
	if len(g.checked) == 0 {
		g.t.Errorf("%s: no golden array checked", g.dir)
	}
	for name := range g.Arrays {
		if !g.checked[name] {
			g.t.Errorf("%s: golden array %q was not checked", g.dir, name)
		}
	}
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// encodings turns golden input arrays into padded encodings.
func (g *golden) encodings(prefix string) []tokenize.Encoding {
	ids := g.input(prefix + "input_ids")
	B, T := ids.Shape[0], ids.Shape[1]
	var mask, types *npy.Array
	if g.has(prefix + "attention_mask") {
		mask = g.input(prefix + "attention_mask")
	}
	if g.has(prefix + "token_type_ids") {
		types = g.input(prefix + "token_type_ids")
	}
	encs := make([]tokenize.Encoding, B)
	for b := range encs {
		e := tokenize.Encoding{IDs: make([]int, T), TypeIDs: make([]int, T), AttentionMask: make([]int, T), Tokens: make([]string, T)}
		for i := 0; i < T; i++ {
			e.IDs[i] = int(ids.I64[b*T+i])
			e.AttentionMask[i] = 1
			if mask != nil {
				e.AttentionMask[i] = int(mask.I64[b*T+i])
			}
			if types != nil {
				e.TypeIDs[i] = int(types.I64[b*T+i])
			}
		}
		encs[b] = e
	}
	return encs
}

func flatHidden(hs []*tensor.Dense) []float32 {
	var out []float32
	for _, h := range hs {
		out = append(out, dense.Data(h).([]float32)...)
	}
	return out
}

func cosFlat(m [][]float64) []float64 {
	var out []float64
	for _, r := range m {
		out = append(out, r...)
	}
	return out
}

// must returns v, failing the test binary on err: for results of calls the
// test has already validated the inputs of.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
