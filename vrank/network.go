package vrank

import (
	"context"
	"github.com/storyeval/storyeval/internal/backprop"
	"math/rand"

	"github.com/storyeval/storyeval/internal/parallel"
)

// batchInput is a padded batch of B encoded pairs of S tokens each.
type batchInput struct {
	B, S     int
	ids      []int
	types    []int
	keyValid []bool
}

// network is the regressor in the element type T for the training passes:
// the parameters and the sizes the passes need.
type network[T backprop.Float] struct {
	p       *params[T]
	H, I    int
	heads   int
	eps     float64
	dropout float64 // on the CLS feature during training (0: none)
	// encDropout is the dropout inside the encoder during training (0:
	// none).
	encDropout float64
	// buf keeps the buffers of a step for the next one (nil: allocate).
	buf *backprop.Arena[T]
	// geluBuf holds one layer's GELU output at a time, in the forward and
	// the backward pass alike (it is recomputed rather than kept).
	geluBuf []T
}

// geluScratch returns the shared GELU buffer with n elements.
func (n *network[T]) geluScratch(size int) []T {
	if cap(n.geluBuf) < size {
		n.geluBuf = make([]T, size)
	}
	return n.geluBuf[:size]
}

// layerCache keeps one encoder layer's activations for the backward pass.
type layerCache[T backprop.Float] struct {
	// x is the layer's input (all rows) and xq its first sq rows of each
	// sequence, the rows whose outputs the layer computes. f is the
	// feed-forward block's pre-activation; its GELU is recomputed in the
	// backward pass rather than kept (rows×intermediate per layer).
	x, xq, q, k, v, ctx, h1, f []T
	sq                         int
	attn                       backprop.AttentionCache[T]
	ln1, ln2                   backprop.NormCache[T]
}

// forwardCache keeps every activation of a training forward pass.
type forwardCache[T backprop.Float] struct {
	in     *batchInput
	enc    backprop.Dropout
	emb    backprop.NormCache[T]
	layers []layerCache[T]
	cls    []T // B×H: the raw CLS states
	pooled []T // B×H: tanh(pooler(cls)), with the pooler head
	drop   []T // B×H: the dropout multipliers (nil without dropout)
	feat   []T // B×H: the head's input
	pred   []T // B
}

// forward runs the regressor on a batch and keeps the activations. rng
// draws the dropout mask (nil: no dropout, as in evaluation).
func (n *network[T]) forward(ctx context.Context, in *batchInput, rng *rand.Rand) (*forwardCache[T], error) {
	p, H, I := n.p, n.H, n.I
	rows := in.B * in.S
	c := &forwardCache[T]{in: in, layers: make([]layerCache[T], len(p.layers)), enc: backprop.NewDropout(n.encDropout, rng)}
	a := n.buf
	a.Reset()
	x := a.Get(rows * H)
	parallel.Chunks(rows, backprop.MinRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			w := p.word[in.ids[r]*H : (in.ids[r]+1)*H]
			ps := p.pos[(r%in.S)*H : (r%in.S+1)*H]
			ty := p.typ[in.types[r]*H : (in.types[r]+1)*H]
			xr := x[r*H : (r+1)*H]
			for j := range xr {
				xr[j] = w[j] + ps[j] + ty[j]
			}
		}
	})
	backprop.LayerNormForward(&p.embLN, x, rows, H, n.eps, x, &c.emb, a)
	backprop.ApplyDropout(c.enc, backprop.Site(-1, backprop.SiteEmbeddings), x)
	for li := range p.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, lc := &p.layers[li], &c.layers[li]
		// Only the CLS state of the last layer reaches the head, so the
		// last layer computes its queries, attention output and
		// feed-forward block for the CLS rows alone (its keys and values
		// still cover every token); the results are those of the full
		// layer.
		lc.sq = in.S
		if li == len(p.layers)-1 {
			lc.sq = 1
		}
		rq := in.B * lc.sq
		lc.x, lc.xq = x, x
		if lc.sq < in.S {
			lc.xq = a.Get(rq * H)
			for b := 0; b < in.B; b++ {
				copy(lc.xq[b*lc.sq*H:(b+1)*lc.sq*H], x[b*in.S*H:])
			}
		}
		lc.q, lc.k, lc.v = a.Get(rq*H), a.Get(rows*H), a.Get(rows*H)
		backprop.LinearForward(&l.q, lc.xq, rq, lc.q)
		backprop.LinearForward(&l.k, x, rows, lc.k)
		backprop.LinearForward(&l.v, x, rows, lc.v)
		lc.ctx = a.Get(rq * H)
		backprop.AttentionForward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, in.keyValid, lc.ctx, &lc.attn, a, c.enc, backprop.Site(li, backprop.SiteAttnProbs))
		h1 := a.Get(rq * H)
		backprop.LinearForward(&l.o, lc.ctx, rq, h1)
		backprop.ApplyDropout(c.enc, backprop.Site(li, backprop.SiteAttnOut), h1)
		addInPlace(h1, lc.xq)
		backprop.LayerNormForward(&l.ln1, h1, rq, H, n.eps, h1, &lc.ln1, a)
		lc.h1 = h1
		lc.f = a.Get(rq * I)
		backprop.LinearForward(&l.fc1, lc.h1, rq, lc.f)
		g := n.geluScratch(rq * I)
		backprop.GELUForward(lc.f, g)
		out := a.Get(rq * H)
		backprop.LinearForward(&l.fc2, g, rq, out)
		backprop.ApplyDropout(c.enc, backprop.Site(li, backprop.SiteFFNOut), out)
		addInPlace(out, lc.h1)
		backprop.LayerNormForward(&l.ln2, out, rq, H, n.eps, out, &lc.ln2, a)
		x = out
	}
	// x holds the first sq rows of each sequence; the CLS state is row 0.
	sq := in.S
	if len(p.layers) > 0 {
		sq = c.layers[len(p.layers)-1].sq
	}
	c.cls = make([]T, in.B*H)
	for b := 0; b < in.B; b++ {
		copy(c.cls[b*H:(b+1)*H], x[b*sq*H:])
	}
	feat := c.cls
	if p.pooler != nil {
		c.pooled = make([]T, in.B*H)
		backprop.LinearForward(p.pooler, c.cls, in.B, c.pooled)
		for i, v := range c.pooled {
			c.pooled[i] = backprop.Tanh(v)
		}
		feat = c.pooled
	}
	if rng != nil && n.dropout > 0 {
		// torch.nn.Dropout: zero each element with probability p and scale
		// the others by 1/(1−p).
		c.drop = make([]T, len(feat))
		keep := T(1 / (1 - n.dropout))
		dropped := make([]T, len(feat))
		for i := range feat {
			if rng.Float64() >= n.dropout {
				c.drop[i] = keep
			}
			dropped[i] = feat[i] * c.drop[i]
		}
		feat = dropped
	}
	c.feat = feat
	c.pred = make([]T, in.B)
	backprop.LinearForward(&p.head, feat, in.B, c.pred)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the predictions is dpred.
func (n *network[T]) backward(ctx context.Context, c *forwardCache[T], dpred []T, g *params[T]) error {
	p, H, I := n.p, n.H, n.I
	in := c.in
	rows := in.B * in.S
	dfeat := make([]T, in.B*H)
	backprop.LinearBackward(&p.head, &g.head, c.feat, dpred, in.B, dfeat)
	if c.drop != nil {
		for i := range dfeat {
			dfeat[i] *= c.drop[i]
		}
	}
	dcls := dfeat
	if p.pooler != nil {
		for i := range dfeat {
			dfeat[i] *= 1 - c.pooled[i]*c.pooled[i]
		}
		dcls = make([]T, in.B*H)
		backprop.LinearBackward(p.pooler, g.pooler, c.cls, dfeat, in.B, dcls)
	}
	a := n.buf
	// dx is the gradient of the current layer's output rows: at the top,
	// the CLS rows of the last layer.
	sq := in.S
	if len(p.layers) > 0 {
		sq = c.layers[len(p.layers)-1].sq
	}
	dx := a.Zeros(in.B * sq * H)
	for b := 0; b < in.B; b++ {
		copy(dx[b*sq*H:b*sq*H+H], dcls[b*H:(b+1)*H])
	}
	dq, dk, dv := a.Get(rows*H), a.Get(rows*H), a.Get(rows*H)
	dctx := a.Get(rows * H)
	df, gelu := a.Get(rows*I), n.geluScratch(rows*I)
	var dyDrop []T
	if c.enc.Active() {
		dyDrop = a.Get(rows * H)
	}
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, gl, lc := &p.layers[li], &g.layers[li], &c.layers[li]
		rq := in.B * lc.sq
		// x' = LN2(fc2(gelu(fc1(h1))) + h1)
		backprop.LayerNormBackward(&l.ln2, &gl.ln2, &lc.ln2, dx, rq, H, dx)
		backprop.GELUForward(lc.f, gelu[:rq*I])
		dy := backprop.CopyDropout(c.enc, backprop.Site(li, backprop.SiteFFNOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		backprop.LinearBackward(&l.fc2, &gl.fc2, gelu[:rq*I], dy, rq, df[:rq*I])
		backprop.GELUBackward(lc.f, df[:rq*I])
		backprop.LinearBackwardInto(&l.fc1, &gl.fc1, lc.h1, df[:rq*I], rq, dx, 1) // dh1
		// h1 = LN1(o(attention(x)) + xq)
		backprop.LayerNormBackward(&l.ln1, &gl.ln1, &lc.ln1, dx, rq, H, dx)
		dy = backprop.CopyDropout(c.enc, backprop.Site(li, backprop.SiteAttnOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		backprop.LinearBackward(&l.o, &gl.o, lc.ctx, dy, rq, dctx[:rq*H])
		backprop.AttentionBackward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, &lc.attn, dctx[:rq*H], dq[:rq*H], dk, dv, c.enc, backprop.Site(li, backprop.SiteAttnProbs))
		// dx (the residual's gradient, rq rows) gains the query path's,
		// then spreads over all rows for the key and value paths.
		backprop.LinearBackwardInto(&l.q, &gl.q, lc.xq, dq[:rq*H], rq, dx, 1)
		dxAll := dx
		if lc.sq < in.S {
			dxAll = a.Zeros(rows * H)
			for b := 0; b < in.B; b++ {
				copy(dxAll[b*in.S*H:], dx[b*lc.sq*H:(b+1)*lc.sq*H])
			}
		}
		backprop.LinearBackwardInto(&l.k, &gl.k, lc.x, dk, rows, dxAll, 1)
		backprop.LinearBackwardInto(&l.v, &gl.v, lc.x, dv, rows, dxAll, 1)
		dx = dxAll
	}
	backprop.ApplyDropout(c.enc, backprop.Site(-1, backprop.SiteEmbeddings), dx)
	backprop.LayerNormBackward(&p.embLN, &g.embLN, &c.emb, dx, rows, H, dx)
	// Embedding gathers: scatter-add in row order (deterministic).
	for r := 0; r < rows; r++ {
		dr := dx[r*H : (r+1)*H]
		addInPlace(g.word[in.ids[r]*H:(in.ids[r]+1)*H], dr)
		addInPlace(g.pos[(r%in.S)*H:(r%in.S+1)*H], dr)
		addInPlace(g.typ[in.types[r]*H:(in.types[r]+1)*H], dr)
	}
	return nil
}

// addInPlace adds src to dst element-wise.
func addInPlace[T backprop.Float](dst, src []T) {
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

// mseLoss returns mean((pred−target)²) and its gradient 2(pred−target)/B
// (torch.nn.MSELoss with reduction "mean").
func mseLoss[T backprop.Float](pred []T, target []float64) (float64, []T) {
	var loss float64
	d := make([]T, len(pred))
	for i, p := range pred {
		e := p - T(target[i])
		loss += float64(e * e)
		d[i] = 2 * e / T(len(pred))
	}
	return loss / float64(len(pred)), d
}
