package train

import (
	"github.com/storyeval/storyeval/encoders/nn"
)

// adam is torch.optim.Adam (PyTorch 1.13, weight_decay 0, amsgrad off) over
// every parameter: the moments m and v have the parameters' shapes, so that
// checkpoints save them under the parameters' names.
type adam struct {
	nn.Adam
	m, v *params[float32]
}

func newAdam(p *params[float32], lr, beta1, beta2, eps float64) *adam {
	return &adam{Adam: nn.Adam{LR: lr, Beta1: beta1, Beta2: beta2, Eps: eps}, m: p.zeroLike(), v: p.zeroLike()}
}

// update applies one Adam step with gradients g to p.
func (a *adam) update(p, g *params[float32]) {
	data := func(q *params[float32]) [][]float32 {
		ts := q.tensors()
		out := make([][]float32, len(ts))
		for i, t := range ts {
			out[i] = t.data
		}
		return out
	}
	// The four lists come from the same parameter layout, so Update's
	// shape checks cannot fail.
	_ = a.Adam.Update(data(p), data(g), data(a.m), data(a.v))
}
