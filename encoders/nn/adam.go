package nn

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Adam is torch.optim.Adam (PyTorch 1.13, amsgrad off, maximize off) over a
// list of float32 tensors. The caller owns the parameters, gradients and
// the moment estimates m and v (tensors of the parameters' shapes, zero at
// the start), so that it can save and restore them; Step counts the updates
// made so far. The zero value needs LR, Beta1, Beta2 and Eps set.
type Adam struct {
	LR, Beta1, Beta2, Eps float64
	// WeightDecay is torch's L2 penalty: the gradient gets WeightDecay·p
	// added before the moments are updated (not AdamW's decoupled decay).
	WeightDecay float64
	Step        int
}

// Update applies one Adam step to every tensor params[i] with gradient
// grads[i] and moments m[i], v[i]. It follows torch's _single_tensor_adam:
// g += wd·p; m = β₁m + (1−β₁)g; v = β₂v + (1−β₂)g²;
// p −= lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + eps), with the tensor arithmetic in
// float32 and the bias corrections in float64, as torch computes them.
// grads is not modified.
func (a *Adam) Update(params, grads, m, v [][]float32) error {
	return a.UpdateOn(Device{Backend: compute.CPU()}, params, grads, m, v)
}

// UpdateOn is Update with the arithmetic on device d (TrainBackend.Adam,
// one fused operation per tensor); on a device the results stay there
// until d.Sync.
func (a *Adam) UpdateOn(d Device, params, grads, m, v [][]float32) error {
	if len(grads) != len(params) || len(m) != len(params) || len(v) != len(params) {
		return fmt.Errorf("Adam.Update: %d parameters, %d gradients, %d and %d moments", len(params), len(grads), len(m), len(v))
	}
	for i, p := range params {
		if len(grads[i]) != len(p) || len(m[i]) != len(p) || len(v[i]) != len(p) {
			return fmt.Errorf("Adam.Update: tensor %d has %d elements, its gradient %d, its moments %d and %d", i, len(p), len(grads[i]), len(m[i]), len(v[i]))
		}
	}
	a.Step++
	s := a.Hyper()
	for i, p := range params {
		d.Backend.Adam(d.Tensor(p), d.Tensor(grads[i]), d.Tensor(m[i]), d.Tensor(v[i]), s)
	}
	return nil
}

// Hyper returns the hyper-parameters of the update a made last (Step
// counts it), for a tensor updated apart from the others.
func (a *Adam) Hyper() compute.AdamStep {
	return compute.AdamStep{LR: a.LR, Beta1: a.Beta1, Beta2: a.Beta2, Eps: a.Eps, WeightDecay: a.WeightDecay, Step: a.Step}
}
