package nn

import (
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/internal/parallel"
)

// EncoderPass is what every layer of one encoder pass over a batch shares
// (post-LN or pre-LN): B sequences of S tokens of width H, the attention's heads and key
// mask, LayerNorm's eps, the dropout of the pass and the feed-forward
// block's activation.
type EncoderPass[T Float] struct {
	B, S, H, Heads int
	KeyValid       []bool
	Eps            float64
	Drop           Dropout
	// Act is the feed-forward block's activation (compute.GELU for BERT).
	Act compute.Activation
	// Arena hands out the pass's buffers (nil: fresh ones).
	Arena *Arena[T]
	// ActBuf holds one layer's activation output at a time, in the forward
	// and the backward pass alike: it is recomputed rather than kept
	// (rows×intermediate per layer). It grows as needed.
	ActBuf *[]T
}

// actScratch returns the shared activation buffer with size elements.
func (e *EncoderPass[T]) actScratch(size int) []T {
	if cap(*e.ActBuf) < size {
		*e.ActBuf = make([]T, size)
	}
	return (*e.ActBuf)[:size]
}

// PostLNCache keeps one post-LN layer's activations for the backward pass.
type PostLNCache[T Float] struct {
	// x is the layer's input (all rows) and xq its first sq rows of each
	// sequence, the rows whose outputs the layer computes. f is the
	// feed-forward block's pre-activation.
	x, xq, q, k, v, ctx, h1, f []T
	sq                         int
	attn                       AttentionCache[T]
	ln1, ln2                   NormCache[T]
}

// QueryRows returns how many rows of each sequence the layer computed.
func (c *PostLNCache[T]) QueryRows() int { return c.sq }

// PostLNForward runs post-LN layer l (BertLayer, AlbertLayer: LN(x +
// attention(x)), then LN(h + FFN(h))) on x (B·S×H) as layer li of pass e,
// and returns its output rows. Only the first sq rows of each sequence are
// computed (queries, attention output and feed-forward block; keys and
// values still cover every token), so the output is B·sq×H; those rows are
// the full layer's. Dropout draws on the streams Site(li, …).
func PostLNForward[T Float](l *EncoderLayer[T], x []T, sq, li int, e *EncoderPass[T], c *PostLNCache[T]) []T {
	a, B, S, H := e.Arena, e.B, e.S, e.H
	I := l.FC1.Out
	rows := B * S
	c.sq = sq
	rq := B * sq
	c.x, c.xq = x, x
	if sq < S {
		c.xq = a.Get(rq * H)
		for b := 0; b < B; b++ {
			copy(c.xq[b*sq*H:(b+1)*sq*H], x[b*S*H:])
		}
	}
	c.q, c.k, c.v = a.Get(rq*H), a.Get(rows*H), a.Get(rows*H)
	LinearForward(&l.Q, c.xq, rq, c.q)
	LinearForward(&l.K, x, rows, c.k)
	LinearForward(&l.V, x, rows, c.v)
	c.ctx = a.Get(rq * H)
	AttentionForward(c.q, c.k, c.v, B, S, sq, H, e.Heads, e.KeyValid, c.ctx, &c.attn, a, e.Drop, Site(li, SiteAttnProbs))
	h1 := a.Get(rq * H)
	LinearForward(&l.O, c.ctx, rq, h1)
	ApplyDropout(e.Drop, Site(li, SiteAttnOut), h1)
	AddInPlace(h1, c.xq)
	LayerNormForward(&l.LN1, h1, rq, H, e.Eps, h1, &c.ln1, a)
	c.h1 = h1
	c.f = a.Get(rq * I)
	LinearForward(&l.FC1, c.h1, rq, c.f)
	act := e.actScratch(rq * I)
	compute.ApplyHost(e.Act, c.f, act)
	out := a.Get(rq * H)
	LinearForward(&l.FC2, act, rq, out)
	ApplyDropout(e.Drop, Site(li, SiteFFNOut), out)
	AddInPlace(out, c.h1)
	LayerNormForward(&l.LN2, out, rq, H, e.Eps, out, &c.ln2, a)
	return out
}

// PostLNWork holds the backward pass's gradient buffers, sized for the
// widest layer and shared by all layers of a pass.
type PostLNWork[T Float] struct {
	dq, dk, dv, dctx, df, dyDrop []T
}

// NewPostLNWork takes the backward buffers of pass e, for layers whose
// feed-forward block is intermediate wide, from e's arena.
func NewPostLNWork[T Float](e *EncoderPass[T], intermediate int) *PostLNWork[T] {
	a, rows, H := e.Arena, e.B*e.S, e.H
	w := &PostLNWork[T]{}
	w.dq, w.dk, w.dv = a.Get(rows*H), a.Get(rows*H), a.Get(rows*H)
	w.dctx, w.df = a.Get(rows*H), a.Get(rows*intermediate)
	if e.Drop.Active() {
		w.dyDrop = a.Get(rows * H)
	}
	return w
}

// PostLNBackward accumulates into g the gradients of layer l given dx, the
// gradient of its output rows (B·sq×H, overwritten), and returns the
// gradient of its input (B·S×H; dx itself when sq is S).
func PostLNBackward[T Float](l, g *EncoderLayer[T], c *PostLNCache[T], dx []T, li int, e *EncoderPass[T], w *PostLNWork[T]) []T {
	a, B, S, H := e.Arena, e.B, e.S, e.H
	I := l.FC1.Out
	rows := B * S
	rq := B * c.sq
	df, dq, dctx := w.df[:rq*I], w.dq[:rq*H], w.dctx[:rq*H]
	dyDrop := w.dyDrop[:min(len(w.dyDrop), rq*H)]
	// out = LN2(fc2(act(fc1(h1))) + h1)
	LayerNormBackward(&l.LN2, &g.LN2, &c.ln2, dx, rq, H, dx)
	dy := CopyDropout(e.Drop, Site(li, SiteFFNOut), dx, dyDrop)
	act := e.actScratch(rq * I)
	compute.ApplyHost(e.Act, c.f, act)
	LinearBackward(&l.FC2, &g.FC2, act, dy, rq, df)
	compute.ActivationBackward(e.Act, c.f, df, df)
	LinearBackwardInto(&l.FC1, &g.FC1, c.h1, df, rq, dx, 1) // dh1
	// h1 = LN1(o(attention(x)) + xq)
	LayerNormBackward(&l.LN1, &g.LN1, &c.ln1, dx, rq, H, dx)
	dy = CopyDropout(e.Drop, Site(li, SiteAttnOut), dx, dyDrop)
	LinearBackward(&l.O, &g.O, c.ctx, dy, rq, dctx)
	AttentionBackward(c.q, c.k, c.v, B, S, c.sq, H, e.Heads, &c.attn, dctx, dq, w.dk, w.dv, e.Drop, Site(li, SiteAttnProbs))
	// dx (the residual's gradient, rq rows) gains the query path's, then
	// spreads over all rows for the key and value paths.
	LinearBackwardInto(&l.Q, &g.Q, c.xq, dq, rq, dx, 1)
	dxAll := dx
	if c.sq < S {
		dxAll = a.Zeros(rows * H)
		for b := 0; b < B; b++ {
			copy(dxAll[b*S*H:], dx[b*c.sq*H:(b+1)*c.sq*H])
		}
	}
	LinearBackwardInto(&l.K, &g.K, c.x, w.dk, rows, dxAll, 1)
	LinearBackwardInto(&l.V, &g.V, c.x, w.dv, rows, dxAll, 1)
	return dxAll
}

// AddInPlace adds src to dst element-wise.
func AddInPlace[T Float](dst, src []T) {
	if len(dst) < 1<<14 {
		for i, v := range src {
			dst[i] += v
		}
		return
	}
	parallel.Chunks(len(dst), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] += src[i]
		}
	})
}
