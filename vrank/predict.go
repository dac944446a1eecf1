package vrank

import (
	"context"
	"fmt"
	"sort"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"

	"gorgonia.org/tensor"
)

// predictBatch is the number of pairs run through the encoder at once.
const predictBatch = 8

// Predict returns the predicted ranking gap of each pair (story1[i],
// story2[i]), in input order: a negative gap means story 1 ranks better
// (the lower average rank). Pairs are encoded in parallel and run in
// batches of similar length, each batch on all cores.
func (m *Model) Predict(ctx context.Context, story1, story2 []string) ([]float64, error) {
	return m.PredictWith(ctx, story1, story2, PredictOptions{})
}

// PredictOptions configure PredictWith. The zero value is Predict.
type PredictOptions struct {
	// Progress, when set, is called after each batch with the number of
	// pairs predicted so far and the total, from the calling goroutine.
	Progress func(done, total int)
}

// PredictWith is Predict with options: the same gaps, with progress
// reports for long runs.
func (m *Model) PredictWith(ctx context.Context, story1, story2 []string, opts PredictOptions) ([]float64, error) {
	encs, err := m.Encode(story1, story2)
	if err != nil {
		return nil, err
	}
	enc, err := m.Encoder()
	if err != nil {
		return nil, err
	}
	order := make([]int, len(encs))
	for i := range order {
		order[i] = i
	}
	// Batches of similar lengths waste less on padding; padding does not
	// change a pair's result.
	sort.SliceStable(order, func(a, b int) bool { return encs[order[a]].Len() > encs[order[b]].Len() })
	out := make([]float64, len(encs))
	for lo := 0; lo < len(order); lo += predictBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx := order[lo:min(lo+predictBatch, len(order))]
		batch := make([]tokenize.Encoding, len(idx))
		for j, i := range idx {
			batch[j] = encs[i]
		}
		res, err := enc.Forward(ctx, padEncodings(batch), encoders.ForwardOptions{})
		if err != nil {
			return nil, fmt.Errorf("pairs %v: %w", idx, err)
		}
		feat, err := m.features(res.LastHiddenState, res.PoolerOutput)
		if err != nil {
			return nil, err
		}
		H := m.cfg.BERT.HiddenSize
		for j, i := range idx {
			out[i] = float64(m.head(feat[j*H : (j+1)*H]))
		}
		if opts.Progress != nil {
			opts.Progress(lo+len(idx), len(order))
		}
	}
	return out, nil
}

// features returns the head's input rows, B×H.
func (m *Model) features(last, pooled *tensor.Dense) ([]float32, error) {
	if m.cfg.Feature == FeaturePooler {
		if pooled == nil {
			return nil, fmt.Errorf("the model has no pooler")
		}
		return dense.Data(pooled).([]float32), nil
	}
	shape := last.Shape()
	B, S, H := shape[0], shape[1], shape[2]
	data := dense.Data(last).([]float32)
	out := make([]float32, B*H)
	for b := 0; b < B; b++ {
		copy(out[b*H:(b+1)*H], data[b*S*H:b*S*H+H])
	}
	return out, nil
}

// head applies Linear(H, 1), accumulating in float32 as torch does; its
// weight and bias are the last two weights of the layout.
func (m *Model) head(x []float32) float32 {
	n := len(m.weights)
	w, b := m.weights[n-2].Data, m.weights[n-1].Data
	var s float32
	for j := range w {
		s += w[j] * x[j]
	}
	return s + b[0]
}
