package nn

import (
	"fmt"

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
		return Device{}, fmt.Errorf("nn: %w", err)
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
