package compute

import (
	"math"
	"slices"
	"testing"
)

// host values of a CPU tensor.
func vals(t Tensor) []float32 { h, _ := HostData(t); return h }

// TestCPUElementwiseOps checks the CPU backend's small operations against
// hand computations.
func TestCPUElementwiseOps(t *testing.T) {
	be := CPU()
	// BiasAct: bias per column, then ReLU.
	x := be.Upload([]float32{1, -2, 3, -4, 5, -6})
	be.BiasAct(x, be.Upload([]float32{1, 1, -10}), 3, ReLU)
	if got, want := vals(x), []float32{2, 0, 0, 0, 6, 0}; !slices.Equal(got, want) {
		t.Errorf("BiasAct = %v, want %v", got, want)
	}
	// Embed: word[ids] + pos[r mod 2] + type[types], width 2.
	word := be.Upload([]float32{0, 0, 10, 20, 30, 40})
	pos := be.Upload([]float32{1, 2, 3, 4})
	typ := be.Upload([]float32{0.5, 0.5, 100, 100})
	dst := be.Alloc(8)
	be.Embed(dst, 2, []Tensor{word, pos, typ}, [][]int{{1, 2, 0, 1}, nil, {0, 0, 1, 1}}, []int{0, 2, 0})
	if got, want := vals(dst), []float32{11.5, 22.5, 33.5, 44.5, 101, 102, 113, 124}; !slices.Equal(got, want) {
		t.Errorf("Embed = %v, want %v", got, want)
	}
	// Embed with a table read at row r itself (period 0) adds in place.
	be.Embed(dst, 2, []Tensor{dst, pos}, [][]int{nil, nil}, []int{0, 2})
	if got := vals(dst)[:4]; !slices.Equal(got, []float32{12.5, 24.5, 36.5, 48.5}) {
		t.Errorf("Embed in place = %v", got)
	}
	// Rows: a negative index keeps the row.
	rows := be.Upload([]float32{9, 9, 9, 9, 9, 9})
	be.Rows(rows, word, 2, []int{2, -1, 0})
	if got, want := vals(rows), []float32{30, 40, 9, 9, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("Rows = %v, want %v", got, want)
	}
	// Normalize: unit L2 rows.
	n := be.Upload([]float32{3, 4, 0, 2})
	be.Normalize(n, 2)
	if got, want := vals(n), []float32{0.6, 0.8, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("Normalize = %v, want %v", got, want)
	}
	// Slice shares storage; Download copies.
	s := be.Slice(n, 2, 4)
	be.Add(s, be.Upload([]float32{1, 1}))
	out := make([]float32, 4)
	be.Download(out, n)
	if !slices.Equal(out, []float32{0.6, 0.8, 1, 2}) || s.Len() != 2 {
		t.Errorf("Add through a Slice: %v", out)
	}
	// LayerNorm of [1 2 3] (mean 2, variance 2/3), γ = 2, β = 1.
	ln := be.Alloc(3)
	be.LayerNorm(ln, be.Upload([]float32{1, 2, 3}), be.Upload([]float32{2, 2, 2}), be.Upload([]float32{1, 1, 1}), 3, 0)
	r := math.Sqrt(1.5)
	for i, want := range []float64{1 - 2*r, 1, 1 + 2*r} {
		if got := vals(ln)[i]; math.Abs(float64(got)-want) > 1e-6 {
			t.Errorf("LayerNorm[%d] = %g, want %g", i, got, want)
		}
	}
}

// TestCPUAttentionMasks checks the fused attention on one sequence of
// three positions, one head of width 1: a causal mask lets position 0 see
// only itself, a padding mask hides key 2 from every query.
func TestCPUAttentionMasks(t *testing.T) {
	be := CPU()
	q := be.Upload([]float32{1, 1, 1})
	k := be.Upload([]float32{0, math.Float32frombits(0x3f317218), 0}) // ln 2
	v := be.Upload([]float32{10, 40, 70})
	shape := AttentionShape{Batch: 1, Seq: 3, Heads: 1, HeadDim: 1, Scale: 1}
	// Scores q·k = 0, ln2, 0: weights 1:2:1.
	want := map[string][]float64{
		"none":   {40, 40, 40},
		"causal": {10, (10 + 2*40) / 3.0, 40},
		"padded": {30, 30, 30},
	}
	for name, mask := range map[string]Mask{"none": {}, "causal": {Causal: true}, "padded": {KeyValid: []bool{true, true, false}}} {
		dst := be.Alloc(3)
		be.Attention(dst, q, k, v, shape, mask)
		for i, w := range want[name] {
			if got := vals(dst)[i]; math.Abs(float64(got)-w) > 1e-4 {
				t.Errorf("%s: position %d = %g, want %g", name, i, got, w)
			}
		}
	}
}
