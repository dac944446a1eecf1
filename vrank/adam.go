package vrank

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// adam is torch.optim.Adam (PyTorch 1.13, weight_decay 0, amsgrad off) over
// every parameter: the moments m and v have the parameters' shapes and step
// counts the updates made so far.
type adam struct {
	lr, beta1, beta2, eps float64
	m, v                  *params[float32]
	step                  int
}

func newAdam(p *params[float32], lr, beta1, beta2, eps float64) *adam {
	return &adam{lr: lr, beta1: beta1, beta2: beta2, eps: eps, m: p.zeroLike(), v: p.zeroLike()}
}

// update applies one Adam step with gradients g to p. It follows torch's
// _single_tensor_adam: m = β₁m + (1−β₁)g; v = β₂v + (1−β₂)g²;
// p −= lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + eps), with the tensor arithmetic in
// float32 and the bias corrections in float64, as torch computes them.
func (a *adam) update(p, g *params[float32]) {
	a.step++
	bc1 := 1 - math.Pow(a.beta1, float64(a.step))
	bc2 := 1 - math.Pow(a.beta2, float64(a.step))
	stepSize := float32(a.lr / bc1)
	bc2Sqrt := float32(math.Sqrt(bc2))
	b1, b2 := float32(a.beta1), float32(a.beta2)
	c1, c2 := float32(1-a.beta1), float32(1-a.beta2)
	eps := float32(a.eps)
	ps, gs, ms, vs := p.tensors(), g.tensors(), a.m.tensors(), a.v.tensors()
	for ti := range ps {
		pd, gd, md, vd := ps[ti].data, gs[ti].data, ms[ti].data, vs[ti].data
		parallel.Chunks(len(pd), 1<<14, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				gi := gd[i]
				md[i] = md[i]*b1 + gi*c1
				vd[i] = vd[i]*b2 + c2*gi*gi
				denom := float32(math.Sqrt(float64(vd[i])))/bc2Sqrt + eps
				pd[i] -= stepSize * (md[i] / denom)
			}
		})
	}
}
