package compute

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// AdamHost is the CPU backend's Adam: torch.optim.Adam's
// _single_tensor_adam (PyTorch 1.13, amsgrad off) on one tensor, with the
// tensor arithmetic in T (float32 for training) and the bias corrections in float64, as
// torch computes them: g = grad + wd·p; m = β₁m + (1−β₁)g;
// v = β₂v + (1−β₂)g²; p −= lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + eps). With
// s.Decoupled (AdamW) the decay is p ·= 1 − lr·wd before the update
// instead. grad is not modified.
func AdamHost[T Float](p, grad, m, v []T, s AdamStep) {
	bc1 := 1 - math.Pow(s.Beta1, float64(s.Step))
	bc2 := 1 - math.Pow(s.Beta2, float64(s.Step))
	stepSize := T(s.LR / bc1)
	bc2Sqrt := T(math.Sqrt(bc2))
	b1, b2 := T(s.Beta1), T(s.Beta2)
	c1, c2 := T(1-s.Beta1), T(1-s.Beta2)
	eps, wd := T(s.Eps), T(s.WeightDecay)
	decay := T(1 - s.LR*s.WeightDecay)
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
			denom := T(math.Sqrt(float64(v[i])))/bc2Sqrt + eps
			p[i] -= stepSize * (m[i] / denom)
		}
	})
}
