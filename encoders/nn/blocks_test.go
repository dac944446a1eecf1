package nn

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// checkBlockGradient compares the input gradient of one block, in float64,
// with central differences of the scalar loss Σ c·block(x), for random x
// and c. run computes the block's output for x; grad its input gradient for
// the output gradient c (after run has been called on x).
func checkBlockGradient(t *testing.T, name string, n, outN int, run func(x []float64) []float64, grad func(x, c []float64) []float64) {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(n*31 + outN)))
	x, c := make([]float64, n), make([]float64, outN)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	loss := func() float64 {
		y := run(x)
		s := 0.0
		for i, v := range y {
			s += c[i] * v
		}
		return s
	}
	run(x)
	dx := grad(x, c)
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
		worst = math.Max(worst, math.Abs(num-dx[i])/math.Max(1e-3, math.Abs(num)))
	}
	if worst > 1e-6 {
		t.Errorf("%s: input gradient off by %.3g (relative)", name, worst)
	}
}

// TestBlockInputGradients checks the input gradient of each block on its
// own: linear, LayerNorm, GELU and masked multi-head attention (with
// respect to q, k and v).
func TestBlockInputGradients(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randn := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	const rows, in, out = 5, 6, 4
	lin := &Linear[float64]{W: randn(out * in), B: randn(out), Out: out, In: in}
	checkBlockGradient(t, "linear", rows*in, rows*out,
		func(x []float64) []float64 { y := make([]float64, rows*out); LinearForward(lin, x, rows, y); return y },
		func(x, c []float64) []float64 {
			dx := make([]float64, rows*in)
			g := &Linear[float64]{W: make([]float64, out*in), B: make([]float64, out), Out: out, In: in}
			LinearBackward(lin, g, x, c, rows, dx)
			return dx
		})
	norm := &Norm[float64]{G: randn(in), B: randn(in)}
	var cache NormCache[float64]
	checkBlockGradient(t, "LayerNorm", rows*in, rows*in,
		func(x []float64) []float64 {
			y := make([]float64, rows*in)
			LayerNormForward(norm, x, rows, in, 1e-12, y, &cache, nil)
			return y
		},
		func(x, c []float64) []float64 {
			dx := make([]float64, rows*in)
			g := &Norm[float64]{G: make([]float64, in), B: make([]float64, in)}
			LayerNormBackward(norm, g, &cache, c, rows, in, dx)
			return dx
		})
	checkBlockGradient(t, "GELU", 40, 40,
		func(x []float64) []float64 { y := make([]float64, len(x)); GELUForward(x, y); return y },
		func(x, c []float64) []float64 { d := append([]float64(nil), c...); GELUBackward(x, d); return d })

	const B, S, H, heads = 2, 5, 6, 2
	valid := []bool{true, true, true, false, false, true, true, true, true, true}
	qkv := [3][]float64{randn(B * S * H), randn(B * S * H), randn(B * S * H)}
	for _, drop := range []Dropout{{}, NewDropout(0.3, rand.New(rand.NewSource(2)))} {
		for which, name := range []string{"attention q", "attention k", "attention v"} {
			var ac AttentionCache[float64]
			args := func(x []float64) (q, k, v []float64) {
				in := qkv
				in[which] = x
				return in[0], in[1], in[2]
			}
			checkBlockGradient(t, fmt.Sprintf("%s (dropout %v)", name, drop.P), B*S*H, B*S*H,
				func(x []float64) []float64 {
					q, k, v := args(x)
					ctx := make([]float64, B*S*H)
					AttentionForward(q, k, v, B, S, S, H, heads, valid, ctx, &ac, nil, drop, 5)
					return ctx
				},
				func(x, c []float64) []float64 {
					q, k, v := args(x)
					var d [3][]float64
					for i := range d {
						d[i] = make([]float64, B*S*H)
					}
					AttentionBackward(q, k, v, B, S, S, H, heads, &ac, c, d[0], d[1], d[2], drop, 5)
					return d[which]
				})
		}
	}
}

// TestEncoderDropoutMask checks the hashed masks: the share dropped is p,
// kept elements are scaled by 1/(1−p), sites and seeds draw different masks.
func TestEncoderDropoutMask(t *testing.T) {
	d := NewDropout(0.3, rand.New(rand.NewSource(1)))
	const n = 200000
	dropped, differ := 0, 0
	other := NewDropout(0.3, rand.New(rand.NewSource(2)))
	for i := 0; i < n; i++ {
		f := d.Factor(Site(0, SiteAttnOut), i)
		switch f {
		case 0:
			dropped++
		case 1 / 0.7:
		default:
			t.Fatalf("factor %v", f)
		}
		if f != d.Factor(Site(0, SiteFFNOut), i) {
			differ++
		}
		if f != other.Factor(Site(0, SiteAttnOut), i) {
			differ++
		}
	}
	if share := float64(dropped) / n; math.Abs(share-0.3) > 0.005 {
		t.Errorf("dropped share %.4f, want 0.3", share)
	}
	// Independent masks disagree on 2·0.3·0.7 = 42 % of the elements.
	if share := float64(differ) / (2 * n); math.Abs(share-0.42) > 0.01 {
		t.Errorf("masks of other sites or seeds disagree on %.4f of the elements, want 0.42", share)
	}
}
