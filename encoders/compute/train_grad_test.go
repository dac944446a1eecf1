package compute

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// fdCheck compares grad, the analytic gradient of loss with respect to x,
// with central differences of loss in float64; loss reads x.
func fdCheck(t *testing.T, name string, x []float64, loss func() float64, grad []float64) {
	t.Helper()
	worst := 0.0
	for i := range x {
		orig := x[i]
		const h = 1e-5
		x[i] = orig + h
		up := loss()
		x[i] = orig - h
		down := loss()
		x[i] = orig
		num := (up - down) / (2 * h)
		worst = math.Max(worst, math.Abs(num-grad[i])/math.Max(1e-3, math.Abs(num)))
	}
	if worst > 1e-6 {
		t.Errorf("%s: gradient off by %.3g (relative)", name, worst)
	}
}

func randn(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// dotWith returns Σ c·y: the scalar loss whose output gradient is c.
func dotWith(c, y []float64) float64 {
	var s float64
	for i, v := range y {
		s += c[i] * v
	}
	return s
}

// TestBiasActBackwardFiniteDifferences checks BiasActBackwardHost's input
// and bias gradients for every activation against BiasActSaveHost.
func TestBiasActBackwardFiniteDifferences(t *testing.T) {
	const rows, w = 4, 5
	for _, act := range []Activation{Identity, GELU, GELUTanh, QuickGELU, ReLU, Tanh} {
		rng := rand.New(rand.NewSource(int64(act) + 1))
		x, bias, c := randn(rng, rows*w), randn(rng, w), randn(rng, rows*w)
		loss := func() float64 {
			pre, y := slices.Clone(x), make([]float64, rows*w)
			BiasActSaveHost(y, pre, bias, w, act)
			return dotWith(c, y)
		}
		pre, y := slices.Clone(x), make([]float64, rows*w)
		BiasActSaveHost(y, pre, bias, w, act)
		dx, db := make([]float64, rows*w), make([]float64, w)
		BiasActBackwardHost(dx, db, c, pre, w, act)
		fdCheck(t, fmt.Sprintf("activation %d input", act), x, loss, dx)
		fdCheck(t, fmt.Sprintf("activation %d bias", act), bias, loss, db)
	}
}

// TestLayerNormBackwardFiniteDifferences checks dx, dγ and dβ.
func TestLayerNormBackwardFiniteDifferences(t *testing.T) {
	const rows, w = 3, 6
	rng := rand.New(rand.NewSource(2))
	x, g, b, c := randn(rng, rows*w), randn(rng, w), randn(rng, w), randn(rng, rows*w)
	loss := func() float64 {
		y := make([]float64, rows*w)
		LayerNormHost(y, x, g, b, w, 1e-5, nil, nil)
		return dotWith(c, y)
	}
	y, xhat, rstd := make([]float64, rows*w), make([]float64, rows*w), make([]float64, rows)
	LayerNormHost(y, x, g, b, w, 1e-5, xhat, rstd)
	dx, dg, db := make([]float64, rows*w), make([]float64, w), make([]float64, w)
	LayerNormBackwardHost(dx, dg, db, c, xhat, rstd, g, w)
	fdCheck(t, "LayerNorm dx", x, loss, dx)
	fdCheck(t, "LayerNorm dγ", g, loss, dg)
	fdCheck(t, "LayerNorm dβ", b, loss, db)
}

// TestAttentionBackwardFiniteDifferences checks dq, dk and dv of masked,
// causal and query-subset attention, with and without dropout.
func TestAttentionBackwardFiniteDifferences(t *testing.T) {
	for _, tc := range []struct {
		name    string
		queries int
		causal  bool
		drop    float64
	}{
		{"padding mask", 0, false, 0},
		{"causal", 0, true, 0},
		{"first query only", 1, false, 0},
		{"dropout", 2, false, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const B, S, heads, dh = 2, 4, 2, 3
			H := heads * dh
			s := AttentionShape{Batch: B, Seq: S, Heads: heads, HeadDim: dh, Scale: float32(1 / math.Sqrt(dh)), Queries: tc.queries}
			sq := s.QueryRows()
			mask := Mask{KeyValid: []bool{true, true, true, false, true, true, true, true}, Causal: tc.causal}
			rng := rand.New(rand.NewSource(3))
			d := NewDropout(tc.drop, rng)
			q, k, v, c := randn(rng, B*sq*H), randn(rng, B*S*H), randn(rng, B*S*H), randn(rng, B*sq*H)
			bl := DefaultBLAS()
			probs := make([]float64, B*heads*sq*S)
			loss := func() float64 {
				out := make([]float64, B*sq*H)
				AttentionHost(bl, out, q, k, v, s, mask, probs, d, 7)
				return dotWith(c, out)
			}
			loss()
			if sq == S {
				// Masked keys get probability exactly 0.
				for bh := 0; bh < heads; bh++ {
					for i := 0; i < S; i++ {
						if p := probs[(bh*S+i)*S+3]; p != 0 {
							t.Fatalf("probability of a padding key = %g", p)
						}
					}
				}
			}
			dq, dk, dv := make([]float64, len(q)), make([]float64, len(k)), make([]float64, len(v))
			AttentionBackwardHost(bl, dq, dk, dv, c, q, k, v, probs, s, d, 7)
			fdCheck(t, "dq", q, loss, dq)
			fdCheck(t, "dk", k, loss, dk)
			fdCheck(t, "dv", v, loss, dv)
		})
	}
}

// TestEmbedAndRowsBackwardFiniteDifferences checks the scatter-adds of
// Embed's and Rows' backward passes, a repeated id and a negative row
// index included.
func TestEmbedAndRowsBackwardFiniteDifferences(t *testing.T) {
	const w = 3
	rng := rand.New(rand.NewSource(4))
	word, pos, typ := randn(rng, 4*w), randn(rng, 2*w), randn(rng, 2*w)
	ids, types := []int{1, 3, 1, 0}, []int{0, 0, 1, 1}
	c := randn(rng, 4*w)
	tables := [][]float64{word, pos, typ}
	idx := [][]int{ids, nil, types}
	period := []int{0, 2, 0}
	loss := func() float64 {
		y := make([]float64, 4*w)
		EmbedHost(y, w, tables, idx, period)
		return dotWith(c, y)
	}
	gw, gp, gt := make([]float64, 4*w), make([]float64, 2*w), make([]float64, 2*w)
	EmbedBackwardHost([][]float64{gw, gp, gt}, w, idx, period, c)
	fdCheck(t, "word", word, loss, gw)
	fdCheck(t, "position", pos, loss, gp)
	fdCheck(t, "type", typ, loss, gt)

	src, pick := randn(rng, 3*w), []int{2, -1, 2, 0}
	dst0 := randn(rng, 4*w)
	rowsLoss := func() float64 {
		y := slices.Clone(dst0)
		for i, at := range pick {
			if at >= 0 {
				copy(y[i*w:(i+1)*w], src[at*w:(at+1)*w])
			}
		}
		return dotWith(c, y)
	}
	ds := make([]float64, 3*w)
	RowsBackwardHost(ds, c, w, pick)
	fdCheck(t, "rows", src, rowsLoss, ds)
}

// TestLossesFiniteDifferences checks the cross-entropy (ignored rows
// included) and MSE gradients, and the cross-entropy's counts.
func TestLossesFiniteDifferences(t *testing.T) {
	const classes = 4
	rng := rand.New(rand.NewSource(5))
	logits := randn(rng, 3*classes)
	labels := []int{2, -100, 0}
	d := make([]float64, len(logits))
	loss := func() float64 { l, _, _ := SoftmaxCrossEntropyHost(d, logits, classes, labels); return l }
	_, counted, correct := SoftmaxCrossEntropyHost(d, logits, classes, labels)
	grad := slices.Clone(d)
	fdCheck(t, "cross-entropy", logits, loss, grad)
	wantCorrect := 0
	for _, r := range []int{0, 2} {
		row := logits[r*classes : (r+1)*classes]
		if slices.Index(row, slices.Max(row)) == labels[r] {
			wantCorrect++
		}
	}
	if counted != 2 || correct != wantCorrect || slices.ContainsFunc(grad[classes:2*classes], func(v float64) bool { return v != 0 }) {
		t.Errorf("cross-entropy: counted %d correct %d (want 2, %d), ignored row's gradient %v", counted, correct, wantCorrect, grad[classes:2*classes])
	}
	// Two classes, by hand: logits (0, ln 3) and label 1: loss −ln(3/4).
	l, _, _ := SoftmaxCrossEntropyHost(make([]float64, 2), []float64{0, math.Log(3)}, 2, []int{1})
	if math.Abs(l+math.Log(0.75)) > 1e-15 {
		t.Errorf("cross-entropy of (0, ln 3) against 1 = %g, want %g", l, -math.Log(0.75))
	}

	pred, target := randn(rng, 5), []float64{0.5, -1, 2, 0, 1}
	dp := make([]float64, 5)
	mse := func() float64 { return MSELossHost(make([]float64, 5), pred, target) }
	MSELossHost(dp, pred, target)
	fdCheck(t, "MSE", pred, mse, dp)
}

// TestAdamHostMatchesTorchFormula checks one Adam and one AdamW update of
// a single value against torch's formulas evaluated by hand in float64
// (float32 rounding apart).
func TestAdamHostMatchesTorchFormula(t *testing.T) {
	for _, decoupled := range []bool{false, true} {
		s := AdamStep{LR: 0.1, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: 0.01, Decoupled: decoupled, Step: 2}
		p, g, m, v := []float32{1.5}, []float32{-0.25}, []float32{0.1}, []float32{0.02}
		AdamHost(p, g, m, v, s)
		pp, gg := 1.5, -0.25
		if decoupled {
			pp *= 1 - 0.1*0.01
		} else {
			gg += 0.01 * pp
		}
		mm := 0.9*0.1 + 0.1*gg
		vv := 0.999*0.02 + 0.001*gg*gg
		want := pp - 0.1/(1-0.81)*mm/(math.Sqrt(vv)/math.Sqrt(1-0.999*0.999)+1e-8)
		if math.Abs(float64(p[0])-want) > 1e-6 || math.Abs(float64(m[0])-mm) > 1e-7 || math.Abs(float64(v[0])-vv) > 1e-8 || g[0] != -0.25 {
			t.Errorf("decoupled %v: p %g m %g v %g g %g, want p %g m %g v %g g unchanged", decoupled, p[0], m[0], v[0], g[0], want, mm, vv)
		}
	}
}

// TestCPUForwardVariantsEqualInference checks that the saving forward
// operations give the inference operations' outputs bit for bit, and that
// the CPU backend's training methods are its host kernels.
func TestCPUForwardVariantsEqualInference(t *testing.T) {
	be := CPU()
	rng := rand.New(rand.NewSource(6))
	r32 := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	const rows, w = 6, 8
	x, bias, g, b := r32(rows*w), r32(w), r32(w), r32(w)
	for _, act := range []Activation{GELU, GELUTanh, QuickGELU, ReLU, Tanh} {
		inf := be.Upload(x)
		be.BiasAct(inf, be.Upload(bias), w, act)
		pre, dst := be.Upload(x), be.Alloc(rows*w)
		be.BiasActSave(dst, pre, be.Upload(bias), w, act)
		if !slices.Equal(vals(dst), vals(inf)) {
			t.Errorf("activation %d: BiasActSave differs from BiasAct", act)
		}
	}
	ln, lns := be.Alloc(rows*w), be.Alloc(rows*w)
	be.LayerNorm(ln, be.Upload(x), be.Upload(g), be.Upload(b), w, 1e-12)
	be.LayerNormSave(lns, be.Upload(x), be.Upload(g), be.Upload(b), w, 1e-12, be.Alloc(rows*w), be.Alloc(rows))
	if !slices.Equal(vals(ln), vals(lns)) {
		t.Error("LayerNormSave differs from LayerNorm")
	}
	s := AttentionShape{Batch: 2, Seq: 3, Heads: 2, HeadDim: 4, Scale: 0.5}
	q, k, v := be.Upload(r32(6*w)), be.Upload(r32(6*w)), be.Upload(r32(6*w))
	mask := Mask{KeyValid: []bool{true, true, false, true, true, true}}
	att, atts := be.Alloc(6*w), be.Alloc(6*w)
	be.Attention(att, q, k, v, s, mask)
	be.AttentionSave(atts, q, k, v, s, mask, be.Alloc(2*2*3*3), Dropout{}, 0)
	if !slices.Equal(vals(att), vals(atts)) {
		t.Error("AttentionSave differs from Attention")
	}
	if _, err := Training(be); err != nil {
		t.Error(err)
	}
}
