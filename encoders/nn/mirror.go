package nn

import (
	"sync"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Mirror holds a backend's copies of host slices, for a pass whose
// parameters, gradients and buffers live in host slices (EncoderPass's
// Tensor function) but which runs on another backend, such as a device:
// each backing array is uploaded once, on first use (all of its capacity),
// and every slice starting at its first element is a view of that copy
// (Backend.Slice), so the operations of a pass see one another's writes.
// Download copies values back into the host slice. It is safe for
// concurrent use.
type Mirror struct {
	be compute.Backend
	mu sync.Mutex
	m  map[*float32]compute.Tensor
}

// NewMirror returns an empty mirror on be.
func NewMirror(be compute.Backend) *Mirror {
	return &Mirror{be: be, m: make(map[*float32]compute.Tensor)}
}

// Tensor returns the backend's view of x (nil for an empty x), uploading
// x's backing array on first use.
func (m *Mirror) Tensor(x []float32) compute.Tensor {
	if len(x) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.m[&x[0]]
	if !ok {
		t = m.be.Upload(x[:cap(x)])
		m.m[&x[0]] = t
	}
	return m.be.Slice(t, 0, len(x))
}

// Download copies the backend's values of x into x (nothing when x was
// never uploaded).
func (m *Mirror) Download(x []float32) {
	if len(x) == 0 {
		return
	}
	m.mu.Lock()
	t, ok := m.m[&x[0]]
	m.mu.Unlock()
	if ok {
		m.be.Download(x, t)
	}
}
