package train

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/parallel"
)

// activation is the feed-forward activation named by config.json's
// hidden_act.
type activation int

const (
	// actGELU is the exact GELU x·Φ(x) ("gelu": albert-large-v1, RoViST-C's
	// base).
	actGELU activation = iota
	// actGELUNew is the tanh approximation of the v2 ALBERT configs
	// ("gelu_new"): ½x(1 + tanh(√(2/π)(x + 0.044715x³))).
	actGELUNew
)

func parseActivation(name string) (activation, error) {
	switch name {
	case "gelu":
		return actGELU, nil
	case "gelu_new":
		return actGELUNew, nil
	}
	return 0, fmt.Errorf("hidden_act %q: training supports gelu and gelu_new", name)
}

const sqrt2OverPi = 0.79788456080286535587989211986876373695171726232986

// forward writes act(x) into y.
func activationForward[T nn.Float](a activation, x, y []T) {
	if a == actGELU {
		nn.GELUForward(x, y)
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := float64(x[i])
			y[i] = T(0.5 * v * (1 + math.Tanh(sqrt2OverPi*(v+0.044715*v*v*v))))
		}
	})
}

// activationBackward multiplies dy by act'(x) in place.
func activationBackward[T nn.Float](a activation, x, dy []T) {
	if a == actGELU {
		nn.GELUBackward(x, dy)
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := float64(x[i])
			th := math.Tanh(sqrt2OverPi * (v + 0.044715*v*v*v))
			d := 0.5*(1+th) + 0.5*v*(1-th*th)*sqrt2OverPi*(1+3*0.044715*v*v)
			dy[i] *= T(d)
		}
	})
}
