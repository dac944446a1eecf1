package nn

import (
	"github.com/storyeval/storyeval/encoders/compute"
)

// EncoderPass is what every layer of one encoder pass over a batch shares
// (post-LN or pre-LN): B sequences of S tokens of width H, the attention's heads and key
// mask, LayerNorm's eps, the dropout of the pass and the feed-forward
// block's activation, and where it runs.
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
	// Backend runs the pass; nil: compute.HostBackend[T] with the default
	// BLAS (the CPU backend in float32).
	Backend compute.TrainBackend
	// Tensor returns the tensor of Backend that holds a host parameter,
	// gradient or buffer of the pass (a device backend's mirror of it);
	// nil: the slice itself, for a HostBackend[T].
	Tensor func([]T) compute.Tensor
}

// TrainBackend returns the pass's backend.
func (e *EncoderPass[T]) TrainBackend() compute.TrainBackend {
	if e.Backend == nil {
		return compute.HostBackend[T]{}
	}
	return e.Backend
}

// TensorOf returns x as a tensor of the pass's backend (nil for nil).
func (e *EncoderPass[T]) TensorOf(x []T) compute.Tensor {
	if x == nil {
		return nil
	}
	if e.Tensor == nil {
		return compute.HostTensor[T](x)
	}
	return e.Tensor(x)
}

// Buffer returns a buffer of n values from the arena, as a tensor (with
// unspecified contents).
func (e *EncoderPass[T]) Buffer(n int) compute.Tensor { return e.TensorOf(e.Arena.Get(n)) }

// host returns the values of a tensor of a HostBackend[T] pass.
func host[T Float](t compute.Tensor) []T {
	if t == nil {
		return nil
	}
	h, ok := compute.HostValues[T](t)
	if !ok {
		panic("nn: a host-slice layer call on a pass whose backend is not a compute.HostBackend")
	}
	return h
}

// actScratch returns the shared activation buffer with size elements.
func (e *EncoderPass[T]) actScratch(size int) compute.Tensor {
	if cap(*e.ActBuf) < size {
		*e.ActBuf = make([]T, size)
	}
	return e.TensorOf((*e.ActBuf)[:size])
}

// mask is the pass's key mask.
func (e *EncoderPass[T]) mask() compute.Mask { return compute.Mask{KeyValid: e.KeyValid} }

// firstRows lists, for B sequences of S rows, the row of each sequence's
// first sq rows (the query rows of a layer that computes only those).
func firstRows(B, S, sq int) []int {
	idx := make([]int, B*sq)
	for b := 0; b < B; b++ {
		for i := 0; i < sq; i++ {
			idx[b*sq+i] = b*S + i
		}
	}
	return idx
}

// PostLNCache keeps one post-LN layer's activations for the backward pass.
type PostLNCache[T Float] struct {
	// x is the layer's input (all rows) and xq its first sq rows of each
	// sequence, the rows whose outputs the layer computes. f is the
	// feed-forward block's pre-activation.
	x, xq, q, k, v, ctx, h1, f compute.Tensor
	probs                      compute.Tensor
	sq                         int
	ln1, ln2                   NormSave
}

// QueryRows returns how many rows of each sequence the layer computed.
func (c *PostLNCache[T]) QueryRows() int { return c.sq }

// PostLNForward runs post-LN layer l (BertLayer, AlbertLayer: LN(x +
// attention(x)), then LN(h + FFN(h))) on x (B·S×H) as layer li of pass e,
// and returns its output rows. Only the first sq rows of each sequence are
// computed (queries, attention output and feed-forward block; keys and
// values still cover every token), so the output is B·sq×H; those rows are
// the full layer's. Dropout draws on the streams Site(li, …). It is
// PostLNForwardT on a host pass.
func PostLNForward[T Float](l *EncoderLayer[T], x []T, sq, li int, e *EncoderPass[T], c *PostLNCache[T]) []T {
	return host[T](PostLNForwardT(l.Tensors(e.TensorOf), e.TensorOf(x), sq, li, e, c))
}

// PostLNForwardT is PostLNForward on tensors of the pass's backend, with
// the layer's parameters lt: the operation sequence of the inference
// encoders' post-LN layer, with the saving variants of its operations.
func PostLNForwardT[T Float](lt LayerT, x compute.Tensor, sq, li int, e *EncoderPass[T], c *PostLNCache[T]) compute.Tensor {
	be, B, S, H := e.TrainBackend(), e.B, e.S, e.H
	I := lt.FC1.Out
	rows, rq := B*S, B*sq
	c.sq = sq
	c.x, c.xq = x, x
	if sq < S {
		c.xq = e.Buffer(rq * H)
		be.Rows(c.xq, x, H, firstRows(B, S, sq))
	}
	c.q, c.k, c.v = e.Buffer(rq*H), e.Buffer(rows*H), e.Buffer(rows*H)
	lt.Q.Forward(be, c.q, c.xq, rq, compute.Identity)
	lt.K.Forward(be, c.k, x, rows, compute.Identity)
	lt.V.Forward(be, c.v, x, rows, compute.Identity)
	c.ctx = e.Buffer(rq * H)
	c.probs = e.Buffer(B * e.Heads * sq * S)
	be.AttentionSave(c.ctx, c.q, c.k, c.v, AttentionShapeOf(B, S, sq, H, e.Heads), e.mask(), c.probs, e.Drop, Site(li, SiteAttnProbs))
	h1 := e.Buffer(rq * H)
	lt.O.Forward(be, h1, c.ctx, rq, compute.Identity)
	be.Dropout(h1, e.Drop, Site(li, SiteAttnOut))
	be.Add(h1, c.xq)
	c.ln1 = NormSave{XHat: e.Buffer(rq * H), RStd: e.Buffer(rq)}
	lt.LN1.Forward(be, h1, h1, H, e.Eps, &c.ln1)
	c.h1 = h1
	c.f = e.Buffer(rq * I)
	act := e.actScratch(rq * I)
	lt.FC1.ForwardSave(be, act, c.f, c.h1, rq, e.Act)
	out := e.Buffer(rq * H)
	lt.FC2.Forward(be, out, act, rq, compute.Identity)
	be.Dropout(out, e.Drop, Site(li, SiteFFNOut))
	be.Add(out, c.h1)
	c.ln2 = NormSave{XHat: e.Buffer(rq * H), RStd: e.Buffer(rq)}
	lt.LN2.Forward(be, out, out, H, e.Eps, &c.ln2)
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
// gradient of its input (B·S×H; dx itself when sq is S). It is
// PostLNBackwardT on a host pass.
func PostLNBackward[T Float](l, g *EncoderLayer[T], c *PostLNCache[T], dx []T, li int, e *EncoderPass[T], w *PostLNWork[T]) []T {
	return host[T](PostLNBackwardT(l.Tensors(e.TensorOf), g.Tensors(e.TensorOf), c, e.TensorOf(dx), li, e, w))
}

// dropped returns dy times the dropout mask of stream in buf, or dy itself
// when the pass has no dropout.
func (e *EncoderPass[T]) dropped(dy compute.Tensor, buf []T, n int, stream uint64) compute.Tensor {
	if !e.Drop.Active() {
		return dy
	}
	be, out := e.TrainBackend(), e.TensorOf(buf[:n])
	be.Copy(out, dy)
	be.Dropout(out, e.Drop, stream)
	return out
}

// PostLNBackwardT is PostLNBackward on tensors, with the layer's
// parameters lt and gradients gt.
func PostLNBackwardT[T Float](lt, gt LayerT, c *PostLNCache[T], dx compute.Tensor, li int, e *EncoderPass[T], w *PostLNWork[T]) compute.Tensor {
	be, B, S, H := e.TrainBackend(), e.B, e.S, e.H
	I := lt.FC1.Out
	rows, rq := B*S, B*c.sq
	df, dq, dctx := e.TensorOf(w.df[:rq*I]), e.TensorOf(w.dq[:rq*H]), e.TensorOf(w.dctx[:rq*H])
	dk, dv := e.TensorOf(w.dk), e.TensorOf(w.dv)
	// out = LN2(fc2(act(fc1(h1))) + h1)
	lt.LN2.Backward(be, gt.LN2, &c.ln2, dx, dx, H)
	dy := e.dropped(dx, w.dyDrop, rq*H, Site(li, SiteFFNOut))
	act := e.actScratch(rq * I)
	be.BiasActSave(act, c.f, nil, I, e.Act)
	lt.FC2.Backward(be, gt.FC2, act, dy, rq, df, 0)
	be.BiasActBackward(df, gt.FC1.B, df, c.f, I, e.Act)
	lt.FC1.Backward(be, LinearT{W: gt.FC1.W}, c.h1, df, rq, dx, 1) // dh1
	// h1 = LN1(o(attention(x)) + xq)
	lt.LN1.Backward(be, gt.LN1, &c.ln1, dx, dx, H)
	dy = e.dropped(dx, w.dyDrop, rq*H, Site(li, SiteAttnOut))
	lt.O.Backward(be, gt.O, c.ctx, dy, rq, dctx, 0)
	be.AttentionBackward(dq, dk, dv, dctx, c.q, c.k, c.v, c.probs, AttentionShapeOf(B, S, c.sq, H, e.Heads), e.mask(), e.Drop, Site(li, SiteAttnProbs))
	// dx (the residual's gradient, rq rows) gains the query path's, then
	// spreads over all rows for the key and value paths.
	lt.Q.Backward(be, gt.Q, c.xq, dq, rq, dx, 1)
	dxAll := dx
	if c.sq < S {
		dxAll = e.Buffer(rows * H)
		be.Zero(dxAll)
		be.RowsBackward(dxAll, dx, H, firstRows(B, S, c.sq))
	}
	lt.K.Backward(be, gt.K, c.x, dk, rows, dxAll, 1)
	lt.V.Backward(be, gt.V, c.x, dv, rows, dxAll, 1)
	return dxAll
}

// AddInPlace adds src to dst element-wise.
func AddInPlace[T Float](dst, src []T) {
	compute.HostBackend[T]{}.Add(compute.HostTensor[T](dst), compute.HostTensor[T](src))
}
