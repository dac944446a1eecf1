package compute

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/internal/npmath"
)

// Activation is an elementwise nonlinearity, fused with a bias add in
// Backend.BiasAct. The zero value applies none.
type Activation int

const (
	// Identity applies no nonlinearity.
	Identity Activation = iota
	// GELU is the exact x·Φ(x) (HF "gelu").
	GELU
	// GELUTanh is GELU's tanh approximation (HF "gelu_new",
	// "gelu_pytorch_tanh", "gelu_fast"; ALBERT v2).
	GELUTanh
	// QuickGELU is CLIP's x·σ(1.702x).
	QuickGELU
	// ReLU is max(x, 0).
	ReLU
	// Tanh is tanh(x) (BERT's pooler).
	Tanh
)

// ActivationByName returns the activation a HF config's hidden_act names.
func ActivationByName(name string) (Activation, error) {
	switch name {
	case "gelu":
		return GELU, nil
	case "gelu_new", "gelu_pytorch_tanh", "gelu_fast":
		return GELUTanh, nil
	case "quick_gelu":
		return QuickGELU, nil
	case "relu":
		return ReLU, nil
	case "tanh":
		return Tanh, nil
	}
	return Identity, fmt.Errorf("unsupported hidden_act %q (want gelu, gelu_new, quick_gelu, relu or tanh)", name)
}

// Apply applies the activation to x in place on the host, as the CPU
// backend does.
func (a Activation) Apply(x []float32) {
	switch a {
	case GELU:
		geluErf(x)
	case GELUTanh:
		geluTanh(x)
	case QuickGELU:
		quickGELU(x)
	case ReLU:
		relu(x)
	case Tanh:
		tanhInPlace(x)
	}
}

// geluErf is the exact GELU, x·Φ(x) = 0.5·x·(1 + erf(x/√2)) (HF "gelu").
// erf comes from npmath.Erf32, accurate to float32 precision (PyTorch computes
// this activation in float32), and the work is split across cores: it is
// the largest cost of a BERT forward pass after the matrix products.
func geluErf(x []float32) {
	InFloat64(x, func(fs []float64) {
		for i, f := range fs {
			fs[i] = 0.5 * f * (1 + npmath.Erf32(f/math.Sqrt2))
		}
	})
}

// InFloat64 applies fn, which computes in float64, to x in blocks, on
// several cores for long inputs. Widening and narrowing happen in loops of
// their own: a float32↔float64 conversion on amd64 depends on its
// destination register, and inside the arithmetic loop that dependency
// serialises iterations (three times slower).
func InFloat64(x []float32, fn func(fs []float64)) {
	inBlocks(x, minActivationChunk, fn, func(lo int, fs []float64) {
		convert(x[lo:lo+len(fs)], fs)
	})
}

// geluTanh is GELU's tanh approximation (HF "gelu_new", used by ALBERT v2).
func geluTanh(x []float32) {
	c := math.Sqrt(2 / math.Pi)
	InFloat64(x, func(fs []float64) {
		for i, f := range fs {
			fs[i] = 0.5 * f * (1 + math.Tanh(c*(f+0.044715*f*f*f)))
		}
	})
}

// quickGELU is CLIP's x·σ(1.702x).
func quickGELU(x []float32) {
	InFloat64(x, func(fs []float64) {
		for i, f := range fs {
			fs[i] = f / (1 + math.Exp(-1.702*f))
		}
	})
}

// minActivationChunk is the number of elements below which splitting an
// activation across goroutines costs more than it saves.
const minActivationChunk = 1 << 14

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
