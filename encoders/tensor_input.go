package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/dense"
	"gorgonia.org/tensor"
)

// float32Values checks a tensor that came from a caller — a non-nil float32
// tensor whose shape has the given dimensions, where a negative dimension
// accepts any size — and returns its values in row-major order with its
// shape. Views are materialised. Every exported entry point that takes a
// tensor reads it through here, so a float64 tensor or a wrong shape is an
// error naming what, never a panic.
func float32Values(what string, t *tensor.Dense, dims ...int) ([]float32, []int, error) {
	if t == nil {
		return nil, nil, fmt.Errorf("%s is nil", what)
	}
	if dt := t.Dtype(); dt != tensor.Float32 {
		return nil, nil, fmt.Errorf("%s has dtype %v, want float32", what, dt)
	}
	shape := []int(t.Shape())
	if len(shape) != len(dims) {
		return nil, nil, fmt.Errorf("%s has shape %v, want %d dimensions", what, shape, len(dims))
	}
	n := 1
	for i, d := range shape {
		if d < 0 || (dims[i] >= 0 && d != dims[i]) {
			return nil, nil, fmt.Errorf("%s has shape %v, want %s", what, shape, dimsString(dims))
		}
		n *= d
	}
	if t.IsView() {
		m, ok := t.Materialize().(*tensor.Dense)
		if !ok {
			return nil, nil, fmt.Errorf("%s: cannot materialise the view", what)
		}
		t = m
	}
	raw := dense.Data(t)
	data, ok := raw.([]float32)
	if !ok || len(data) < n {
		return nil, nil, fmt.Errorf("%s holds %T with fewer than the %d values of shape %v", what, raw, n, shape)
	}
	return data[:n], shape, nil
}

// dimsString writes wanted dimensions, "?" for any size.
func dimsString(dims []int) string {
	s := "["
	for i, d := range dims {
		if i > 0 {
			s += " "
		}
		if d < 0 {
			s += "?"
		} else {
			s += fmt.Sprint(d)
		}
	}
	return s + "]"
}

// anySize is a wildcard dimension for float32Values.
const anySize = -1
