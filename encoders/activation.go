package encoders

import (
	"fmt"
	"math"
)

// activation is an elementwise nonlinearity applied in place.
type activation func(x []float32)

// activationByName returns the activation a HF config's hidden_act names.
func activationByName(name string) (activation, error) {
	switch name {
	case "gelu":
		return geluErf, nil
	case "gelu_new", "gelu_pytorch_tanh", "gelu_fast":
		return geluTanh, nil
	case "quick_gelu":
		return quickGELU, nil
	case "relu":
		return relu, nil
	case "tanh":
		return tanhInPlace, nil
	}
	return nil, fmt.Errorf("unsupported hidden_act %q (want gelu, gelu_new, quick_gelu, relu or tanh)", name)
}

// geluErf is the exact GELU, x·Φ(x) = 0.5·x·(1 + erf(x/√2)) (HF "gelu").
func geluErf(x []float32) {
	for i, v := range x {
		f := float64(v)
		x[i] = float32(0.5 * f * (1 + math.Erf(f/math.Sqrt2)))
	}
}

// geluTanh is GELU's tanh approximation (HF "gelu_new", used by ALBERT v2).
func geluTanh(x []float32) {
	c := math.Sqrt(2 / math.Pi)
	for i, v := range x {
		f := float64(v)
		x[i] = float32(0.5 * f * (1 + math.Tanh(c*(f+0.044715*f*f*f))))
	}
}

// quickGELU is CLIP's x·σ(1.702x).
func quickGELU(x []float32) {
	for i, v := range x {
		f := float64(v)
		x[i] = float32(f / (1 + math.Exp(-1.702*f)))
	}
}

func relu(x []float32) {
	for i, v := range x {
		if v < 0 {
			x[i] = 0
		}
	}
}

func tanhInPlace(x []float32) {
	for i, v := range x {
		x[i] = float32(math.Tanh(float64(v)))
	}
}
