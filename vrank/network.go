package vrank

import (
	"context"
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
type network[T float] struct {
	p       *params[T]
	H, I    int
	heads   int
	eps     float64
	dropout float64 // on the CLS feature during training (0: none)
	// encDropout is the dropout inside the encoder during training (0:
	// none).
	encDropout float64
	// buf keeps the buffers of a step for the next one (nil: allocate).
	buf *arena[T]
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
type layerCache[T float] struct {
	// x is the layer's input (all rows) and xq its first sq rows of each
	// sequence, the rows whose outputs the layer computes. f is the
	// feed-forward block's pre-activation; its GELU is recomputed in the
	// backward pass rather than kept (rows×intermediate per layer).
	x, xq, q, k, v, ctx, h1, f []T
	sq                         int
	attn                       attentionCache[T]
	ln1, ln2                   normCache[T]
}

// forwardCache keeps every activation of a training forward pass.
type forwardCache[T float] struct {
	in     *batchInput
	enc    encoderDropout
	emb    normCache[T]
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
	c := &forwardCache[T]{in: in, layers: make([]layerCache[T], len(p.layers)), enc: newEncoderDropout(n.encDropout, rng)}
	a := n.buf
	a.reset()
	x := a.get(rows * H)
	parallel.Chunks(rows, minRows, func(_, lo, hi int) {
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
	layerNormForward(&p.embLN, x, rows, H, n.eps, x, &c.emb, a)
	dropoutApply(c.enc, site(-1, siteEmbeddings), x)
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
			lc.xq = a.get(rq * H)
			for b := 0; b < in.B; b++ {
				copy(lc.xq[b*lc.sq*H:(b+1)*lc.sq*H], x[b*in.S*H:])
			}
		}
		lc.q, lc.k, lc.v = a.get(rq*H), a.get(rows*H), a.get(rows*H)
		linearForward(&l.q, lc.xq, rq, lc.q)
		linearForward(&l.k, x, rows, lc.k)
		linearForward(&l.v, x, rows, lc.v)
		lc.ctx = a.get(rq * H)
		attentionForward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, in.keyValid, lc.ctx, &lc.attn, a, c.enc, site(li, siteAttnProbs))
		h1 := a.get(rq * H)
		linearForward(&l.o, lc.ctx, rq, h1)
		dropoutApply(c.enc, site(li, siteAttnOut), h1)
		addInPlace(h1, lc.xq)
		layerNormForward(&l.ln1, h1, rq, H, n.eps, h1, &lc.ln1, a)
		lc.h1 = h1
		lc.f = a.get(rq * I)
		linearForward(&l.fc1, lc.h1, rq, lc.f)
		g := n.geluScratch(rq * I)
		geluForward(lc.f, g)
		out := a.get(rq * H)
		linearForward(&l.fc2, g, rq, out)
		dropoutApply(c.enc, site(li, siteFFNOut), out)
		addInPlace(out, lc.h1)
		layerNormForward(&l.ln2, out, rq, H, n.eps, out, &lc.ln2, a)
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
		linearForward(p.pooler, c.cls, in.B, c.pooled)
		for i, v := range c.pooled {
			c.pooled[i] = tanhT(v)
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
	linearForward(&p.head, feat, in.B, c.pred)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the predictions is dpred.
func (n *network[T]) backward(ctx context.Context, c *forwardCache[T], dpred []T, g *params[T]) error {
	p, H, I := n.p, n.H, n.I
	in := c.in
	rows := in.B * in.S
	dfeat := make([]T, in.B*H)
	linearBackward(&p.head, &g.head, c.feat, dpred, in.B, dfeat)
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
		linearBackward(p.pooler, g.pooler, c.cls, dfeat, in.B, dcls)
	}
	a := n.buf
	// dx is the gradient of the current layer's output rows: at the top,
	// the CLS rows of the last layer.
	sq := in.S
	if len(p.layers) > 0 {
		sq = c.layers[len(p.layers)-1].sq
	}
	dx := a.zeros(in.B * sq * H)
	for b := 0; b < in.B; b++ {
		copy(dx[b*sq*H:b*sq*H+H], dcls[b*H:(b+1)*H])
	}
	dq, dk, dv := a.get(rows*H), a.get(rows*H), a.get(rows*H)
	dctx := a.get(rows * H)
	df, gelu := a.get(rows*I), n.geluScratch(rows*I)
	var dyDrop []T
	if c.enc.active() {
		dyDrop = a.get(rows * H)
	}
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, gl, lc := &p.layers[li], &g.layers[li], &c.layers[li]
		rq := in.B * lc.sq
		// x' = LN2(fc2(gelu(fc1(h1))) + h1)
		layerNormBackward(&l.ln2, &gl.ln2, &lc.ln2, dx, rq, H, dx)
		geluForward(lc.f, gelu[:rq*I])
		dy := dropoutCopy(c.enc, site(li, siteFFNOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		linearBackward(&l.fc2, &gl.fc2, gelu[:rq*I], dy, rq, df[:rq*I])
		geluBackward(lc.f, df[:rq*I])
		linearBackwardInto(&l.fc1, &gl.fc1, lc.h1, df[:rq*I], rq, dx, 1) // dh1
		// h1 = LN1(o(attention(x)) + xq)
		layerNormBackward(&l.ln1, &gl.ln1, &lc.ln1, dx, rq, H, dx)
		dy = dropoutCopy(c.enc, site(li, siteAttnOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		linearBackward(&l.o, &gl.o, lc.ctx, dy, rq, dctx[:rq*H])
		attentionBackward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, &lc.attn, dctx[:rq*H], dq[:rq*H], dk, dv, c.enc, site(li, siteAttnProbs))
		// dx (the residual's gradient, rq rows) gains the query path's,
		// then spreads over all rows for the key and value paths.
		linearBackwardInto(&l.q, &gl.q, lc.xq, dq[:rq*H], rq, dx, 1)
		dxAll := dx
		if lc.sq < in.S {
			dxAll = a.zeros(rows * H)
			for b := 0; b < in.B; b++ {
				copy(dxAll[b*in.S*H:], dx[b*lc.sq*H:(b+1)*lc.sq*H])
			}
		}
		linearBackwardInto(&l.k, &gl.k, lc.x, dk, rows, dxAll, 1)
		linearBackwardInto(&l.v, &gl.v, lc.x, dv, rows, dxAll, 1)
		dx = dxAll
	}
	dropoutApply(c.enc, site(-1, siteEmbeddings), dx)
	layerNormBackward(&p.embLN, &g.embLN, &c.emb, dx, rows, H, dx)
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
func addInPlace[T float](dst, src []T) {
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
func mseLoss[T float](pred []T, target []float64) (float64, []T) {
	var loss float64
	d := make([]T, len(pred))
	for i, p := range pred {
		e := p - T(target[i])
		loss += float64(e * e)
		d[i] = 2 * e / T(len(pred))
	}
	return loss / float64(len(pred)), d
}
