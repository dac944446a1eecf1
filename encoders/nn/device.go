package nn

import (
	"slices"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Device is where a trainer runs its steps: a compute.TrainBackend and,
// for a backend other than the host's, the Mirror of the trainer's host
// parameters, gradients, optimiser moments and buffers. The host slices
// stay the trainer's state between steps (the parameter walk, saving,
// resuming): after a step on a device the trainer downloads what it reads
// on the host (Sync).
type Device struct {
	Backend compute.TrainBackend
	Mirror  *Mirror // nil on the host: a slice is its own tensor
}

// NewDevice returns the device of a trainer option: the CPU for nil, and
// an error naming the backend when it cannot train.
func NewDevice(b compute.Backend) (Device, error) {
	if b == nil {
		return Device{Backend: compute.CPU()}, nil
	}
	tb, err := compute.Training(b)
	if err != nil {
		return Device{}, err
	}
	if _, host := tb.(compute.CPUBackend); host {
		return Device{Backend: tb}, nil
	}
	return Device{Backend: tb, Mirror: NewMirror(tb)}, nil
}

// Tensor returns the backend's tensor of a host slice (nil for nil).
func (d Device) Tensor(x []float32) compute.Tensor {
	if d.Mirror != nil {
		return d.Mirror.Tensor(x)
	}
	if x == nil {
		return nil
	}
	return compute.Host(x)
}

// Sync copies the backend's values of the slices back to the host (nothing
// on the host).
func (d Device) Sync(xs ...[]float32) {
	if d.Mirror == nil {
		return
	}
	for _, x := range xs {
		d.Mirror.Download(x)
	}
}

// Attach makes pass e run on d (nil, or the host: e's own default, the
// host in T).
func Attach[T Float](e *EncoderPass[T], d *Device) {
	if d == nil {
		return
	}
	e.Backend = d.Backend
	if d.Mirror != nil {
		e.Tensor = func(x []T) compute.Tensor { return d.Mirror.Tensor(any(x).([]float32)) }
	}
}

// Upload returns host values as a new tensor of the pass's backend (the
// slice itself on the host): inputs drawn on the host each step, which a
// mirror would not see change.
func (e *EncoderPass[T]) Upload(x []T) compute.Tensor {
	if e.Tensor == nil {
		return compute.HostTensor[T](x)
	}
	return e.TrainBackend().Upload(any(x).([]float32))
}

// Download returns a copy of the first k values of a tensor of the pass on
// the host.
func (e *EncoderPass[T]) Download(t compute.Tensor, k int) []T {
	if h, ok := compute.HostValues[T](t); ok {
		return slices.Clone(h[:k])
	}
	out := make([]float32, k)
	e.TrainBackend().Download(out, t)
	return any(out).([]T)
}

// Zero clears each slice on d (the gradients before a step).
func (d Device) Zero(xs [][]float32) {
	for _, x := range xs {
		d.Backend.Zero(d.Tensor(x))
	}
}

// AdamStep applies a's update on d (Adam.UpdateOn) and copies the
// parameters, gradients and moments back to the host, where the trainer
// keeps them between steps.
func (d Device) AdamStep(a *Adam, params, grads, m, v [][]float32) error {
	if err := a.UpdateOn(d, params, grads, m, v); err != nil {
		return err
	}
	d.Sync(slices.Concat(params, grads, m, v)...)
	return nil
}
