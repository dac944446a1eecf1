package nn

import "github.com/storyeval/storyeval/encoders/compute"

// PreLNCache keeps one pre-LN layer's activations for the backward pass.
type PreLNCache[T Float] struct {
	in, h1, q, k, v, ctx, x1, h2, f1, g compute.Tensor
	probs                               compute.Tensor
	n1, n2                              NormSave
}

// PreLNForward runs pre-LN layer l (HF ViTLayer: x1 = x +
// o(attention(LN1(x))), out = x1 + fc2(act(fc1(LN2(x1))))) on every row of
// x (B·S×H) as part of pass e, and returns its output. It keeps the
// activation's output rather than recomputing it, and applies no dropout
// (ViT's dropout probabilities are 0 in the checkpoints it is trained
// from), so e.Drop and e.ActBuf are not used. It is PreLNForwardT on a
// host pass.
func PreLNForward[T Float](l *EncoderLayer[T], x []T, e *EncoderPass[T], c *PreLNCache[T]) []T {
	return host[T](PreLNForwardT(l.Tensors(e.TensorOf), e.TensorOf(x), e, c))
}

// PreLNForwardT is PreLNForward on tensors of the pass's backend, with the
// layer's parameters lt: the operation sequence of the inference encoders'
// pre-LN layer, with the saving variants of its operations.
func PreLNForwardT[T Float](lt LayerT, x compute.Tensor, e *EncoderPass[T], c *PreLNCache[T]) compute.Tensor {
	be, H := e.TrainBackend(), e.H
	I := lt.FC1.Out
	rows := e.B * e.S
	c.in = x
	c.h1 = e.Buffer(rows * H)
	c.n1 = NormSave{XHat: e.Buffer(rows * H), RStd: e.Buffer(rows)}
	lt.LN1.Forward(be, c.h1, x, H, e.Eps, &c.n1)
	c.q, c.k, c.v = e.Buffer(rows*H), e.Buffer(rows*H), e.Buffer(rows*H)
	lt.Q.Forward(be, c.q, c.h1, rows, compute.Identity)
	lt.K.Forward(be, c.k, c.h1, rows, compute.Identity)
	lt.V.Forward(be, c.v, c.h1, rows, compute.Identity)
	c.ctx = e.Buffer(rows * H)
	c.probs = e.Buffer(e.B * e.Heads * e.S * e.S)
	be.AttentionSave(c.ctx, c.q, c.k, c.v, AttentionShapeOf(e.B, e.S, e.S, H, e.Heads), e.mask(), c.probs, Dropout{}, 0)
	c.x1 = e.Buffer(rows * H)
	lt.O.Forward(be, c.x1, c.ctx, rows, compute.Identity)
	be.Add(c.x1, x)
	c.h2 = e.Buffer(rows * H)
	c.n2 = NormSave{XHat: e.Buffer(rows * H), RStd: e.Buffer(rows)}
	lt.LN2.Forward(be, c.h2, c.x1, H, e.Eps, &c.n2)
	c.f1, c.g = e.Buffer(rows*I), e.Buffer(rows*I)
	lt.FC1.ForwardSave(be, c.g, c.f1, c.h2, rows, e.Act)
	out := e.Buffer(rows * H)
	lt.FC2.Forward(be, out, c.g, rows, compute.Identity)
	be.Add(out, c.x1)
	return out
}

// PreLNWork holds the backward pass's gradient buffers, shared by all
// layers of a pass.
type PreLNWork[T Float] struct {
	tmp, dq, dk, dv, dctx []T
}

// NewPreLNWork takes the backward buffers of pass e from e's arena.
func NewPreLNWork[T Float](e *EncoderPass[T]) *PreLNWork[T] {
	a, n := e.Arena, e.B*e.S*e.H
	return &PreLNWork[T]{tmp: a.Get(n), dq: a.Get(n), dk: a.Get(n), dv: a.Get(n), dctx: a.Get(n)}
}

// PreLNBackward accumulates into g the gradients of layer l given dx, the
// gradient of its output, which it turns into the gradient of its input
// in place. It is PreLNBackwardT on a host pass.
func PreLNBackward[T Float](l, g *EncoderLayer[T], c *PreLNCache[T], dx []T, e *EncoderPass[T], w *PreLNWork[T]) {
	PreLNBackwardT(l.Tensors(e.TensorOf), g.Tensors(e.TensorOf), c, e.TensorOf(dx), e, w)
}

// PreLNBackwardT is PreLNBackward on tensors, with the layer's parameters
// lt and gradients gt.
func PreLNBackwardT[T Float](lt, gt LayerT, c *PreLNCache[T], dx compute.Tensor, e *EncoderPass[T], w *PreLNWork[T]) {
	be, H := e.TrainBackend(), e.H
	I := lt.FC1.Out
	rows := e.B * e.S
	tmp, dq, dk, dv, dctx := e.TensorOf(w.tmp), e.TensorOf(w.dq), e.TensorOf(w.dk), e.TensorOf(w.dv), e.TensorOf(w.dctx)
	// out = fc2(act(fc1(ln2(x1)))) + x1: dx is d out and becomes d x1.
	dact := e.Buffer(rows * I)
	lt.FC2.Backward(be, gt.FC2, c.g, dx, rows, dact, 0)
	be.BiasActBackward(dact, gt.FC1.B, dact, c.f1, I, e.Act)
	lt.FC1.Backward(be, LinearT{W: gt.FC1.W}, c.h2, dact, rows, tmp, 0)
	lt.LN2.Backward(be, gt.LN2, &c.n2, tmp, tmp, H)
	be.Add(dx, tmp)
	// x1 = o(attention(ln1(in))) + in: dx becomes d in.
	lt.O.Backward(be, gt.O, c.ctx, dx, rows, dctx, 0)
	be.AttentionBackward(dq, dk, dv, dctx, c.q, c.k, c.v, c.probs, AttentionShapeOf(e.B, e.S, e.S, H, e.Heads), e.mask(), Dropout{}, 0)
	lt.Q.Backward(be, gt.Q, c.h1, dq, rows, tmp, 0)
	lt.K.Backward(be, gt.K, c.h1, dk, rows, tmp, 1)
	lt.V.Backward(be, gt.V, c.h1, dv, rows, tmp, 1)
	lt.LN1.Backward(be, gt.LN1, &c.n1, tmp, tmp, H)
	be.Add(dx, tmp)
}
