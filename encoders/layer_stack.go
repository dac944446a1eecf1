package encoders

import (
	"context"

	"gorgonia.org/tensor"
)

// runLayers applies n transformer steps to x [batch·seq, hidden] in place:
// step i runs the layers layersAt(i) returns (one layer, or ALBERT's shared
// group). ctx is checked before each step (a nil ctx never cancels). With
// opts.HiddenStates it returns the input and every step's output, as HF's
// output_hidden_states.
func runLayers(ctx context.Context, x []float32, batch, seq, hidden, inter int, mask attentionMask,
	opts ForwardOptions, n int, layersAt func(i int) []encoderLayer) ([]*tensor.Dense, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	keep := opts.HiddenStates
	var states []*tensor.Dense
	snapshot := func() {
		if keep {
			states = append(states, denseOf(append([]float32(nil), x...), batch, seq, hidden))
		}
	}
	snapshot()
	s := newScratch(batch*seq, hidden, inter, seq, workers())
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		layers := layersAt(i)
		for j := range layers {
			layers[j].apply(x, batch, seq, mask, s)
		}
		snapshot()
	}
	return states, nil
}

// oneLayer returns the step function of a plain stack of layers.
func oneLayer(layers []encoderLayer) func(int) []encoderLayer {
	return func(i int) []encoderLayer { return layers[i : i+1] }
}
