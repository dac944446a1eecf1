package encoders

import (
	"fmt"
	"math"
	"runtime"

	"gorgonia.org/tensor"
)

// ForwardOptions selects optional outputs of a forward pass. The zero value
// computes the outputs HF returns by default.
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
	if o == nil {
		return nil, fmt.Errorf("SentenceEmbedding of a nil output")
	}
	switch p {
	case PoolCLS:
		return o.Pooled()
	case PoolCLSBeforePooler:
		return o.CLS()
	case PoolMean:
		return o.meanPooled()
	default:
		return nil, fmt.Errorf("unknown pooling %d", p)
	}
}

// Pooled returns the pooler output tanh(W·h_CLS + b), [batch, hidden], or
// an error when the model has no pooler.
func (o *TextOutput) Pooled() (*tensor.Dense, error) {
	if o == nil {
		return copyPooled(nil, "PoolCLSBeforePooler")
	}
	return copyPooled(o.PoolerOutput, "PoolCLSBeforePooler")
}

// copyPooled checks a pooler output [batch, hidden] and returns a copy;
// instead names what to use when the model has no pooler.
func copyPooled(pooled *tensor.Dense, instead string) (*tensor.Dense, error) {
	if pooled == nil {
		return nil, fmt.Errorf("the model has no pooler; use %s", instead)
	}
	x, shape, err := float32Values("PoolerOutput", pooled, anySize, anySize)
	if err != nil {
		return nil, err
	}
	return denseOf(append([]float32(nil), x...), shape...), nil
}

// CLS returns the last hidden state at the first position ([CLS] for BERT
// and ALBERT), [batch, hidden]: the input of the pooler, and what metrics
// with their own head on the unpooled state read.
func (o *TextOutput) CLS() (*tensor.Dense, error) {
	if o == nil {
		return nil, fmt.Errorf("CLS of a nil output")
	}
	return firstPosition("LastHiddenState", o.LastHiddenState)
}

// meanPooled is the attention-masked mean of the last hidden states in
// float64, as SimCSE's "avg".
func (o *TextOutput) meanPooled() (*tensor.Dense, error) {
	x, shape, err := float32Values("LastHiddenState", o.LastHiddenState, anySize, anySize, anySize)
	if err != nil {
		return nil, err
	}
	B, T, H := shape[0], shape[1], shape[2]
	if o.mask != nil && len(o.mask) != B*T {
		return nil, fmt.Errorf("attention mask of %d positions for a [%d %d] batch", len(o.mask), B, T)
	}
	out := make([]float32, B*H)
	sum := make([]float64, H)
	for b := 0; b < B; b++ {
		clear(sum)
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
	return denseOf(out, B, H), nil
}

// firstPosition returns the hidden state at position 0 of every sequence of
// a [batch, seq, hidden] tensor, [batch, hidden].
func firstPosition(what string, t *tensor.Dense) (*tensor.Dense, error) {
	x, shape, err := float32Values(what, t, anySize, anySize, anySize)
	if err != nil {
		return nil, err
	}
	B, T, H := shape[0], shape[1], shape[2]
	if T == 0 {
		return nil, fmt.Errorf("%s has no positions", what)
	}
	cls := make([]float32, B*H)
	for b := 0; b < B; b++ {
		copy(cls[b*H:(b+1)*H], x[b*T*H:])
	}
	return denseOf(cls, B, H), nil
}

// CosineMatrix returns the [n, n] cosine similarities of the rows of an
// [n, d] float32 tensor, computed in float64.
func CosineMatrix(x *tensor.Dense) ([][]float64, error) {
	data, shape, err := float32Values("CosineMatrix input", x, anySize, anySize)
	if err != nil {
		return nil, err
	}
	n, d := shape[0], shape[1]
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
	return out, nil
}

// workers is how many goroutines run attention heads in parallel.
func workers() int { return runtime.GOMAXPROCS(0) }
