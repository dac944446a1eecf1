package nn

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// randomLayer returns an encoder layer with random weights and LayerNorm
// parameters near (1, 0).
func randomLayer(rng *rand.Rand, H, I int) EncoderLayer[float64] {
	l := NewEncoderLayer[float64](H, I)
	var ts [][]float64
	add := TensorNamer[float64](func(_ string, d []float64, _ ...int) { ts = append(ts, d) })
	add.EncoderLayer("", &l, EncoderLayerNames{})
	for _, d := range ts {
		for i := range d {
			d[i] = 0.3 * rng.NormFloat64()
		}
	}
	for i := range l.LN1.G {
		l.LN1.G[i]++
		l.LN2.G[i]++
	}
	return l
}

// TestEncoderLayerInputGradients checks the input gradients of the post-LN
// layer (all query rows, and the CLS row alone with padded keys) and of the
// pre-LN layer against central differences.
func TestEncoderLayerInputGradients(t *testing.T) {
	const B, S, H, I, heads = 2, 3, 4, 6, 2
	rng := rand.New(rand.NewSource(7))
	l := randomLayer(rng, H, I)
	keyValid := []bool{true, true, true, true, true, false}
	var actBuf []float64
	pass := func() *EncoderPass[float64] {
		return &EncoderPass[float64]{B: B, S: S, H: H, Heads: heads, KeyValid: keyValid, Eps: 1e-12,
			Act: compute.GELU, ActBuf: &actBuf}
	}
	for _, sq := range []int{S, 1} {
		var c PostLNCache[float64]
		checkBlockGradient(t, fmt.Sprintf("post-LN sq=%d", sq), B*S*H, B*sq*H,
			func(x []float64) []float64 {
				return PostLNForward(&l, append([]float64(nil), x...), sq, 0, pass(), &c)
			},
			func(_, dy []float64) []float64 {
				e := pass()
				g := l.ZeroLike()
				return PostLNBackward(&l, &g, &c, append([]float64(nil), dy...), 0, e, NewPostLNWork(e, I))
			})
	}
	var c PreLNCache[float64]
	checkBlockGradient(t, "pre-LN", B*S*H, B*S*H,
		func(x []float64) []float64 { return PreLNForward(&l, x, pass(), &c) },
		func(_, dy []float64) []float64 {
			e := pass()
			g := l.ZeroLike()
			dx := append([]float64(nil), dy...)
			PreLNBackward(&l, &g, &c, dx, e, NewPreLNWork(e))
			return dx
		})
}
