package nn

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// The encoder layers run as a sequence of compute.Backend operations on
// tensors — the operations the inference encoders run — and their backward
// passes as compute.TrainBackend operations, so a layer's math lives in the
// backend's kernels once, for scoring and training, on the CPU and on a
// device. The parameter-holding types (Linear, Norm, EncoderLayer) keep
// host slices for the parameter walk; a pass turns them into tensors with
// its Tensor function.

// LinearT is a linear layer's weight [Out, In] and bias [Out] (nil: none)
// as tensors of a backend.
type LinearT struct {
	W, B    compute.Tensor
	Out, In int
}

// NormT is a LayerNorm's γ and β as tensors of a backend.
type NormT struct{ G, B compute.Tensor }

// LayerT is an encoder layer's parameters (EncoderLayer's) as tensors.
type LayerT struct {
	Q, K, V, O LinearT
	LN1        NormT
	FC1, FC2   LinearT
	LN2        NormT
}

// Forward writes y[rows×Out] = x[rows×In]·Wᵀ + b, then act, fused with
// the bias add (Backend.BiasAct: the inference encoders' linear layer).
func (l LinearT) Forward(be compute.Backend, y, x compute.Tensor, rows int, act compute.Activation) {
	be.Gemm(false, true, rows, l.Out, l.In, 1, x, l.In, l.W, l.In, 0, y, l.Out)
	if l.B != nil || act != compute.Identity {
		be.BiasAct(y, l.B, l.Out, act)
	}
}

// ForwardSave writes y = act(x·Wᵀ + b) keeping the pre-activation in pre
// (TrainBackend.BiasActSave), for BiasActBackward.
func (l LinearT) ForwardSave(be compute.TrainBackend, y, pre, x compute.Tensor, rows int, act compute.Activation) {
	be.Gemm(false, true, rows, l.Out, l.In, 1, x, l.In, l.W, l.In, 0, pre, l.Out)
	be.BiasActSave(y, pre, l.B, l.Out, act)
}

// Backward accumulates the weight and bias gradients of dy (rows×Out) into
// g and, with dx non-nil, writes dx = dy·W + beta·dx.
func (l LinearT) Backward(be compute.TrainBackend, g LinearT, x, dy compute.Tensor, rows int, dx compute.Tensor, beta float32) {
	be.Gemm(true, false, l.Out, l.In, rows, 1, dy, l.Out, x, l.In, 1, g.W, l.In)
	if g.B != nil {
		be.BiasActBackward(dy, g.B, dy, nil, l.Out, compute.Identity)
	}
	if dx != nil {
		be.Gemm(false, false, rows, l.In, l.Out, 1, dy, l.Out, l.W, l.In, beta, dx, l.In)
	}
}

// NormSave keeps what LayerNorm's backward pass needs: x̂ and 1/σ per row.
type NormSave struct{ XHat, RStd compute.Tensor }

// Forward normalises the rows of width w of x into y (y may be x), saving
// into s when s is non-nil (TrainBackend.LayerNormSave) and running the
// inference LayerNorm otherwise.
func (n NormT) Forward(be compute.Backend, y, x compute.Tensor, w int, eps float64, s *NormSave) {
	if s == nil {
		be.LayerNorm(y, x, n.G, n.B, w, eps)
		return
	}
	be.(compute.TrainBackend).LayerNormSave(y, x, n.G, n.B, w, eps, s.XHat, s.RStd)
}

// Backward accumulates dγ and dβ into g and writes dx (which may be dy).
func (n NormT) Backward(be compute.TrainBackend, g NormT, s *NormSave, dx, dy compute.Tensor, w int) {
	be.LayerNormBackward(dx, g.G, g.B, dy, s.XHat, s.RStd, n.G, w)
}

// AttentionShapeOf is the geometry of B sequences of S keys and Sq
// queries, width H split into heads (scale 1/√(H/heads) in float32, as the
// inference encoders compute it).
func AttentionShapeOf(B, S, Sq, H, heads int) compute.AttentionShape {
	dh := H / heads
	return compute.AttentionShape{Batch: B, Seq: S, Heads: heads, HeadDim: dh, Queries: Sq,
		Scale: float32(1 / math.Sqrt(float64(dh)))}
}

// Tensors returns l's weight and bias as tensors, through tensor (a
// pass's TensorOf).
func (l *Linear[T]) Tensors(tensor func([]T) compute.Tensor) LinearT {
	return LinearT{W: tensor(l.W), B: tensor(l.B), Out: l.Out, In: l.In}
}

// Tensors returns n's γ and β as tensors, through tensor.
func (n *Norm[T]) Tensors(tensor func([]T) compute.Tensor) NormT {
	return NormT{G: tensor(n.G), B: tensor(n.B)}
}

// Tensors returns l's parameters as tensors, through tensor (a pass's
// TensorOf).
func (l *EncoderLayer[T]) Tensors(tensor func([]T) compute.Tensor) LayerT {
	return LayerT{Q: l.Q.Tensors(tensor), K: l.K.Tensors(tensor), V: l.V.Tensors(tensor), O: l.O.Tensors(tensor),
		LN1: l.LN1.Tensors(tensor), FC1: l.FC1.Tensors(tensor), FC2: l.FC2.Tensors(tensor), LN2: l.LN2.Tensors(tensor)}
}
