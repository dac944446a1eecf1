package rovist

import (
	"context"
	"math"
	"math/rand"

	"github.com/storyeval/storyeval/internal/backprop"
	"github.com/storyeval/storyeval/internal/parallel"
)

// sopBatch is a padded batch of B encoded sentence pairs of S tokens each.
type sopBatch struct {
	B, S     int
	ids      []int
	types    []int
	keyValid []bool
}

// sopNet is the RoViST-C classifier in the element type T for the training
// passes (AlbertModel + pooler + Linear(H, 2), as usydnlp/rovist
// scripts/rovist_c.py SOPClassifier, whose dropout before the head is never
// applied).
type sopNet[T backprop.Float] struct {
	p              *sopParams[T]
	E, H, I, heads int
	layers         int // applications of the shared layer
	eps            float64
	act            activation
	// dropout is the encoder's dropout in training (hidden and attention
	// probabilities, as AlbertModel in train mode; 0: none).
	dropout float64
	// buf keeps the buffers of a step for the next one (nil: allocate).
	buf *backprop.Arena[T]
	// actBuf holds one application's activation output at a time, in the
	// forward and the backward pass alike: it is recomputed rather than
	// kept (rows×intermediate per application).
	actBuf []T
}

// actScratch returns the shared activation buffer with size elements.
func (n *sopNet[T]) actScratch(size int) []T {
	if cap(n.actBuf) < size {
		n.actBuf = make([]T, size)
	}
	return n.actBuf[:size]
}

// sopLayerCache keeps one application of the shared layer for the backward
// pass.
type sopLayerCache[T backprop.Float] struct {
	x, xq, q, k, v, ctx, h1, f []T
	sq                         int
	attn                       backprop.AttentionCache[T]
	ln1, ln2                   backprop.NormCache[T]
}

// sopCache keeps every activation of a forward pass.
type sopCache[T backprop.Float] struct {
	in     *sopBatch
	drop   backprop.Dropout
	emb    []T // rows×E after LayerNorm and dropout
	embLN  backprop.NormCache[T]
	layers []sopLayerCache[T]
	cls    []T // B×H: the last layer's CLS states
	pooled []T // B×H: tanh(pooler(cls))
	logits []T // B×2
}

// forward runs the classifier on a batch and keeps the activations; rng
// draws the dropout masks (nil: none, as in evaluation).
func (n *sopNet[T]) forward(ctx context.Context, in *sopBatch, rng *rand.Rand) (*sopCache[T], error) {
	p, E, H, I := n.p, n.E, n.H, n.I
	rows := in.B * in.S
	c := &sopCache[T]{in: in, layers: make([]sopLayerCache[T], n.layers), drop: backprop.NewDropout(n.dropout, rng)}
	a := n.buf
	a.Reset()
	emb := a.Get(rows * E)
	parallel.Chunks(rows, backprop.MinRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			w := p.word[in.ids[r]*E : (in.ids[r]+1)*E]
			ps := p.pos[(r%in.S)*E : (r%in.S+1)*E]
			ty := p.typ[in.types[r]*E : (in.types[r]+1)*E]
			er := emb[r*E : (r+1)*E]
			for j := range er {
				er[j] = w[j] + ps[j] + ty[j]
			}
		}
	})
	backprop.LayerNormForward(&p.embLN, emb, rows, E, n.eps, emb, &c.embLN, a)
	backprop.ApplyDropout(c.drop, backprop.Site(-1, backprop.SiteEmbeddings), emb)
	c.emb = emb
	x := a.Get(rows * H)
	backprop.LinearForward(&p.mapIn, emb, rows, x)
	l := &p.layer
	for li := 0; li < n.layers; li++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lc := &c.layers[li]
		// Only the CLS state of the last application reaches the pooler,
		// so it computes its queries, attention output and feed-forward
		// block for the CLS rows alone (keys and values still cover every
		// token); the CLS results are those of the full layer.
		lc.sq = in.S
		if li == n.layers-1 {
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
		backprop.AttentionForward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, in.keyValid, lc.ctx, &lc.attn, a, c.drop, backprop.Site(li, backprop.SiteAttnProbs))
		h1 := a.Get(rq * H)
		backprop.LinearForward(&l.o, lc.ctx, rq, h1)
		backprop.ApplyDropout(c.drop, backprop.Site(li, backprop.SiteAttnOut), h1)
		addTo(h1, lc.xq)
		backprop.LayerNormForward(&l.ln1, h1, rq, H, n.eps, h1, &lc.ln1, a)
		lc.h1 = h1
		lc.f = a.Get(rq * I)
		backprop.LinearForward(&l.fc1, lc.h1, rq, lc.f)
		act := n.actScratch(rq * I)
		activationForward(n.act, lc.f, act)
		out := a.Get(rq * H)
		backprop.LinearForward(&l.fc2, act, rq, out)
		backprop.ApplyDropout(c.drop, backprop.Site(li, backprop.SiteFFNOut), out)
		addTo(out, lc.h1)
		backprop.LayerNormForward(&l.ln2, out, rq, H, n.eps, out, &lc.ln2, a)
		x = out
	}
	sq := c.layers[n.layers-1].sq
	c.cls = make([]T, in.B*H)
	for b := 0; b < in.B; b++ {
		copy(c.cls[b*H:(b+1)*H], x[b*sq*H:])
	}
	c.pooled = make([]T, in.B*H)
	backprop.LinearForward(&p.pooler, c.cls, in.B, c.pooled)
	for i, v := range c.pooled {
		c.pooled[i] = backprop.Tanh(v)
	}
	c.logits = make([]T, in.B*2)
	backprop.LinearForward(&p.head, c.pooled, in.B, c.logits)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the logits is dlogits. The shared layer's gradients sum over
// its applications.
func (n *sopNet[T]) backward(ctx context.Context, c *sopCache[T], dlogits []T, g *sopParams[T]) error {
	p, E, H, I := n.p, n.E, n.H, n.I
	in := c.in
	rows := in.B * in.S
	dpooled := make([]T, in.B*H)
	backprop.LinearBackward(&p.head, &g.head, c.pooled, dlogits, in.B, dpooled)
	for i := range dpooled {
		dpooled[i] *= 1 - c.pooled[i]*c.pooled[i]
	}
	dcls := make([]T, in.B*H)
	backprop.LinearBackward(&p.pooler, &g.pooler, c.cls, dpooled, in.B, dcls)
	a := n.buf
	sq := c.layers[n.layers-1].sq
	dx := a.Zeros(in.B * sq * H)
	for b := 0; b < in.B; b++ {
		copy(dx[b*sq*H:b*sq*H+H], dcls[b*H:(b+1)*H])
	}
	dq, dk, dv := a.Get(rows*H), a.Get(rows*H), a.Get(rows*H)
	dctx, df := a.Get(rows*H), a.Get(rows*I)
	var dyDrop []T
	if c.drop.Active() {
		dyDrop = a.Get(rows * H)
	}
	l, gl := &p.layer, &g.layer
	for li := n.layers - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		lc := &c.layers[li]
		rq := in.B * lc.sq
		// out = LN2(fc2(act(fc1(h1))) + h1)
		backprop.LayerNormBackward(&l.ln2, &gl.ln2, &lc.ln2, dx, rq, H, dx)
		dy := backprop.CopyDropout(c.drop, backprop.Site(li, backprop.SiteFFNOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		act := n.actScratch(rq * I)
		activationForward(n.act, lc.f, act)
		backprop.LinearBackward(&l.fc2, &gl.fc2, act, dy, rq, df[:rq*I])
		activationBackward(n.act, lc.f, df[:rq*I])
		backprop.LinearBackwardInto(&l.fc1, &gl.fc1, lc.h1, df[:rq*I], rq, dx, 1)
		// h1 = LN1(dense(attention(x)) + xq)
		backprop.LayerNormBackward(&l.ln1, &gl.ln1, &lc.ln1, dx, rq, H, dx)
		dy = backprop.CopyDropout(c.drop, backprop.Site(li, backprop.SiteAttnOut), dx, dyDrop[:min(len(dyDrop), rq*H)])
		backprop.LinearBackward(&l.o, &gl.o, lc.ctx, dy, rq, dctx[:rq*H])
		backprop.AttentionBackward(lc.q, lc.k, lc.v, in.B, in.S, lc.sq, H, n.heads, &lc.attn, dctx[:rq*H], dq[:rq*H], dk, dv, c.drop, backprop.Site(li, backprop.SiteAttnProbs))
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
	demb := a.Get(rows * E)
	backprop.LinearBackward(&p.mapIn, &g.mapIn, c.emb, dx, rows, demb)
	backprop.ApplyDropout(c.drop, backprop.Site(-1, backprop.SiteEmbeddings), demb)
	backprop.LayerNormBackward(&p.embLN, &g.embLN, &c.embLN, demb, rows, E, demb)
	// Embedding gathers: scatter-add in row order (deterministic).
	for r := 0; r < rows; r++ {
		dr := demb[r*E : (r+1)*E]
		addTo(g.word[in.ids[r]*E:(in.ids[r]+1)*E], dr)
		addTo(g.pos[(r%in.S)*E:(r%in.S+1)*E], dr)
		addTo(g.typ[in.types[r]*E:(in.types[r]+1)*E], dr)
	}
	return nil
}

// addTo adds src to dst element-wise.
func addTo[T backprop.Float](dst, src []T) {
	for i, v := range src {
		dst[i] += v
	}
}

// crossEntropy returns torch.nn.CrossEntropyLoss (mean reduction) of B×2
// logits against labels, and its gradient with respect to the logits,
// softmax − onehot over B. The log-softmax is computed in float64.
func crossEntropy[T backprop.Float](logits []T, labels []int) (float64, []T) {
	B := len(labels)
	d := make([]T, len(logits))
	var loss float64
	for b, y := range labels {
		l0, l1 := float64(logits[2*b]), float64(logits[2*b+1])
		m := math.Max(l0, l1)
		lse := m + math.Log(math.Exp(l0-m)+math.Exp(l1-m))
		loss += lse - float64(logits[2*b+y])
		for k, lk := range []float64{l0, l1} {
			pk := math.Exp(lk - lse)
			if k == y {
				pk--
			}
			d[2*b+k] = T(pk / float64(B))
		}
	}
	return loss / float64(B), d
}
