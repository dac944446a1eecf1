package train

import (
	"github.com/storyeval/storyeval/encoders/nn"
)

// adam is torch.optim.Adam (PyTorch 1.13, weight_decay 0, amsgrad off) over
// every parameter: the moments m and v have the parameters' shapes, so that
// checkpoints save them under the parameters' names.
type adam struct {
	nn.Adam
	// m and v are zeros like the parameter walk (nn.ZerosLike), under the
	// parameters' names.
	m, v []nn.Param[float32]
}

func newAdam(p *params[float32], lr, beta1, beta2, eps float64) *adam {
	ps := p.tensors()
	return &adam{Adam: nn.Adam{LR: lr, Beta1: beta1, Beta2: beta2, Eps: eps}, m: nn.ZerosLike(ps), v: nn.ZerosLike(ps)}
}

// update applies one Adam step with gradients g to p on device d, and
// brings the results back to the host copies, the trainer's state
// (parameters, gradients and moments are read, saved and resumed there).
func (a *adam) update(d nn.Device, p, g *params[float32]) {
	// The four lists come from the same parameter walk, so UpdateOn's shape
	// checks cannot fail.
	_ = d.AdamStep(&a.Adam, nn.Values(p.tensors()), nn.Values(g.tensors()), nn.Values(a.m), nn.Values(a.v))
}
