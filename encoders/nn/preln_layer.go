package nn

import "github.com/storyeval/storyeval/encoders/compute"

// PreLNCache keeps one pre-LN layer's activations for the backward pass.
type PreLNCache[T Float] struct {
	in, h1, q, k, v, ctx, x1, h2, f1, g []T
	n1, n2                              NormCache[T]
	attn                                AttentionCache[T]
}

// PreLNForward runs pre-LN layer l (HF ViTLayer: x1 = x +
// o(attention(LN1(x))), out = x1 + fc2(act(fc1(LN2(x1))))) on every row of
// x (B·S×H) as part of pass e, and returns its output. It keeps the
// activation's output rather than recomputing it, and applies no dropout
// (ViT's dropout probabilities are 0 in the checkpoints it is trained
// from), so e.Drop and e.ActBuf are not used.
func PreLNForward[T Float](l *EncoderLayer[T], x []T, e *EncoderPass[T], c *PreLNCache[T]) []T {
	a, B, S, H := e.Arena, e.B, e.S, e.H
	I := l.FC1.Out
	rows := B * S
	c.in = x
	c.h1 = a.Get(rows * H)
	LayerNormForward(&l.LN1, x, rows, H, e.Eps, c.h1, &c.n1, a)
	c.q, c.k, c.v = a.Get(rows*H), a.Get(rows*H), a.Get(rows*H)
	LinearForward(&l.Q, c.h1, rows, c.q)
	LinearForward(&l.K, c.h1, rows, c.k)
	LinearForward(&l.V, c.h1, rows, c.v)
	c.ctx = a.Get(rows * H)
	AttentionForward(c.q, c.k, c.v, B, S, S, H, e.Heads, e.KeyValid, c.ctx, &c.attn, a, Dropout{}, 0)
	c.x1 = a.Get(rows * H)
	LinearForward(&l.O, c.ctx, rows, c.x1)
	AddInPlace(c.x1, x)
	c.h2 = a.Get(rows * H)
	LayerNormForward(&l.LN2, c.x1, rows, H, e.Eps, c.h2, &c.n2, a)
	c.f1, c.g = a.Get(rows*I), a.Get(rows*I)
	LinearForward(&l.FC1, c.h2, rows, c.f1)
	compute.ApplyHost(e.Act, c.f1, c.g)
	out := a.Get(rows * H)
	LinearForward(&l.FC2, c.g, rows, out)
	AddInPlace(out, c.x1)
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
// in place.
func PreLNBackward[T Float](l, g *EncoderLayer[T], c *PreLNCache[T], dx []T, e *EncoderPass[T], w *PreLNWork[T]) {
	a, B, S, H := e.Arena, e.B, e.S, e.H
	I := l.FC1.Out
	rows := B * S
	// out = fc2(act(fc1(ln2(x1)))) + x1: dx is d out and becomes d x1.
	dact := a.Get(rows * I)
	LinearBackward(&l.FC2, &g.FC2, c.g, dx, rows, dact)
	compute.ActivationBackward(e.Act, c.f1, dact, dact)
	LinearBackward(&l.FC1, &g.FC1, c.h2, dact, rows, w.tmp)
	LayerNormBackward(&l.LN2, &g.LN2, &c.n2, w.tmp, rows, H, w.tmp)
	AddInPlace(dx, w.tmp)
	// x1 = o(attention(ln1(in))) + in: dx becomes d in.
	LinearBackward(&l.O, &g.O, c.ctx, dx, rows, w.dctx)
	AttentionBackward(c.q, c.k, c.v, B, S, S, H, e.Heads, &c.attn, w.dctx, w.dq, w.dk, w.dv, Dropout{}, 0)
	LinearBackward(&l.Q, &g.Q, c.h1, w.dq, rows, w.tmp)
	LinearBackwardInto(&l.K, &g.K, c.h1, w.dk, rows, w.tmp, 1)
	LinearBackwardInto(&l.V, &g.V, c.h1, w.dv, rows, w.tmp, 1)
	LayerNormBackward(&l.LN1, &g.LN1, &c.n1, w.tmp, rows, H, w.tmp)
	AddInPlace(dx, w.tmp)
}
