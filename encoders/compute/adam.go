package compute

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// AdamHost is the CPU backend's Adam: torch.optim.Adam's
// _single_tensor_adam (PyTorch 1.13, amsgrad off) on one tensor, with the
// tensor arithmetic in float32 and the bias corrections in float64, as
// torch computes them: g = grad + wd·p; m = β₁m + (1−β₁)g;
// v = β₂v + (1−β₂)g²; p −= lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + eps). With
// s.Decoupled (AdamW) the decay is p ·= 1 − lr·wd before the update
// instead. grad is not modified.
func AdamHost(p, grad, m, v []float32, s AdamStep) {
	bc1 := 1 - math.Pow(s.Beta1, float64(s.Step))
	bc2 := 1 - math.Pow(s.Beta2, float64(s.Step))
	stepSize := float32(s.LR / bc1)
	bc2Sqrt := float32(math.Sqrt(bc2))
	b1, b2 := float32(s.Beta1), float32(s.Beta2)
	c1, c2 := float32(1-s.Beta1), float32(1-s.Beta2)
	eps, wd := float32(s.Eps), float32(s.WeightDecay)
	decay := float32(1 - s.LR*s.WeightDecay)
	parallel.Chunks(len(p), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			gi := grad[i]
			switch {
			case s.Decoupled:
				p[i] *= decay
			case wd != 0:
				gi += wd * p[i]
			}
			m[i] = m[i]*b1 + gi*c1
			v[i] = v[i]*b2 + c2*gi*gi
			denom := float32(math.Sqrt(float64(v[i])))/bc2Sqrt + eps
			p[i] -= stepSize * (m[i] / denom)
		}
	})
}
