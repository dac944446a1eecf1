package encoders

import (
	"fmt"
	"math"
	"runtime"

	"gorgonia.org/tensor"
)

// ForwardOptions selects optional outputs of a forward pass.
type ForwardOptions struct {
	// HiddenStates keeps the input of every layer and the last output
	// (HF output_hidden_states): num_hidden_layers+1 tensors.
	HiddenStates bool
}

// TextOutput is the result of a text encoder's forward pass.
type TextOutput struct {
	// LastHiddenState is [batch, seq, hidden].
	LastHiddenState *tensor.Dense
	// PoolerOutput is [batch, hidden], or nil when the model has no pooler.
	PoolerOutput *tensor.Dense
	// HiddenStates are [batch, seq, hidden] each, when requested.
	HiddenStates []*tensor.Dense

	mask []bool // attention mask of the batch, for masked pooling
}

// Pooling selects a sentence embedding from a text encoder's outputs: the
// choices of the SimCSE code (simcse/models.py, tool.py).
type Pooling int

const (
	// PoolCLS is the pooler output tanh(W·h_CLS + b) (SimCSE "cls", used by
	// the supervised SimCSE models).
	PoolCLS Pooling = iota
	// PoolCLSBeforePooler is the raw last hidden state at [CLS] (SimCSE
	// "cls_before_pooler", the unsupervised models).
	PoolCLSBeforePooler
	// PoolMean is the attention-masked mean of the last hidden states
	// (SimCSE "avg").
	PoolMean
)

// SentenceEmbedding returns one [hidden] vector per sequence.
func (o *TextOutput) SentenceEmbedding(p Pooling) (*tensor.Dense, error) {
	shape := o.LastHiddenState.Shape()
	B, T, H := shape[0], shape[1], shape[2]
	x := o.LastHiddenState.Data().([]float32)
	out := make([]float32, B*H)
	switch p {
	case PoolCLS:
		if o.PoolerOutput == nil {
			return nil, fmt.Errorf("encoders: the model has no pooler; use PoolCLSBeforePooler")
		}
		copy(out, o.PoolerOutput.Data().([]float32))
	case PoolCLSBeforePooler:
		for b := 0; b < B; b++ {
			copy(out[b*H:(b+1)*H], x[b*T*H:])
		}
	case PoolMean:
		for b := 0; b < B; b++ {
			sum := make([]float64, H)
			n := 0.0
			for t := 0; t < T; t++ {
				if o.mask != nil && !o.mask[b*T+t] {
					continue
				}
				n++
				for j := range sum {
					sum[j] += float64(x[(b*T+t)*H+j])
				}
			}
			for j := range sum {
				out[b*H+j] = float32(sum[j] / n)
			}
		}
	default:
		return nil, fmt.Errorf("encoders: unknown pooling %d", p)
	}
	return denseOf(out, B, H), nil
}

// CosineMatrix returns the [n, n] cosine similarities of the rows of an
// [n, d] tensor, computed in float64.
func CosineMatrix(x *tensor.Dense) [][]float64 {
	shape := x.Shape()
	n, d := shape[0], shape[1]
	data := x.Data().([]float32)
	norm := make([]float64, n)
	for i := range norm {
		for _, v := range data[i*d : (i+1)*d] {
			norm[i] += float64(v) * float64(v)
		}
		norm[i] = math.Sqrt(norm[i])
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range out[i] {
			dot := 0.0
			for k := 0; k < d; k++ {
				dot += float64(data[i*d+k]) * float64(data[j*d+k])
			}
			out[i][j] = dot / (norm[i] * norm[j])
		}
	}
	return out
}

// workers is how many goroutines run attention heads in parallel.
func workers() int { return runtime.GOMAXPROCS(0) }
