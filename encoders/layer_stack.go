package encoders

import (
	"context"

	"github.com/storyeval/storyeval/encoders/compute"
	"gorgonia.org/tensor"
)

// runLayers applies n transformer steps to x [batch·seq, hidden] in place:
// step i runs the layers layersAt(i) returns (one layer, or ALBERT's shared
// group). ctx is checked before each step (a nil ctx never cancels). With
// opts.HiddenStates it returns the input and every step's output, as HF's
// output_hidden_states.
func runLayers(ctx context.Context, be compute.Backend, x compute.Tensor, batch, seq, hidden, inter int, mask compute.Mask,
	opts ForwardOptions, n int, layersAt func(i int) []encoderLayer) ([]*tensor.Dense, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var states []*tensor.Dense
	snapshot := func() {
		if opts.HiddenStates {
			states = append(states, downloadDense(be, x, batch, seq, hidden))
		}
	}
	snapshot()
	s := newScratch(be, batch*seq, hidden, inter)
	defer s.free(be)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		layers := layersAt(i)
		for j := range layers {
			layers[j].apply(be, x, batch, seq, mask, s)
		}
		snapshot()
	}
	return states, nil
}

// oneLayer returns the step function of a plain stack of layers.
func oneLayer(layers []encoderLayer) func(int) []encoderLayer {
	return func(i int) []encoderLayer { return layers[i : i+1] }
}

// downloadDense copies a tensor of the backend into a new float32 tensor
// of the given shape.
func downloadDense(be compute.Backend, t compute.Tensor, shape ...int) *tensor.Dense {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	be.Download(data, t)
	return denseOf(data, shape...)
}

// outputDense returns a forward pass's final tensor t as a float32 tensor
// and gives t up: a CPU tensor becomes the output without a copy, a device
// tensor is downloaded and freed.
func outputDense(be compute.Backend, t compute.Tensor, shape ...int) *tensor.Dense {
	if h, ok := compute.HostData(t); ok {
		return denseOf(h, shape...)
	}
	d := downloadDense(be, t, shape...)
	be.Free(t)
	return d
}
