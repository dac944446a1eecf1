package train

import (
	"context"
	"math/rand"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
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
type network[T nn.Float] struct {
	p       *params[T]
	H, I    int
	heads   int
	eps     float64
	dropout float64 // on the CLS feature during training (0: none)
	// encDropout is the dropout inside the encoder during training (0:
	// none).
	encDropout float64
	// buf keeps the buffers of a step for the next one (nil: allocate).
	buf *nn.Arena[T]
	// geluBuf holds one layer's GELU output at a time, in the forward and
	// the backward pass alike (see nn.EncoderPass.ActBuf).
	geluBuf []T
	// allRows makes the last layer compute every token's state (for the
	// masked-LM head) instead of the CLS rows alone.
	allRows bool
}

// forwardCache keeps every activation of a training forward pass.
type forwardCache[T nn.Float] struct {
	in     *batchInput
	enc    nn.Dropout
	emb    nn.NormCache[T]
	layers []nn.PostLNCache[T]
	top    []T // the last layer's output rows (B·sq×H)
	cls    []T // B×H: the raw CLS states
	pooled []T // B×H: tanh(pooler(cls)), with the pooler head
	drop   []T // B×H: the dropout multipliers (nil without dropout)
	feat   []T // B×H: the head's input
	pred   []T // B
}

// forward runs the regressor on a batch and keeps the activations. rng
// draws the dropout mask (nil: no dropout, as in evaluation).
func (n *network[T]) forward(ctx context.Context, in *batchInput, rng *rand.Rand) (*forwardCache[T], error) {
	p, H := n.p, n.H
	rows := in.B * in.S
	c := &forwardCache[T]{in: in, layers: make([]nn.PostLNCache[T], len(p.layers)), enc: nn.NewDropout(n.encDropout, rng)}
	e := n.pass(c)
	e.Arena.Reset()
	x := e.Arena.Get(rows * H)
	nn.TokenEmbeddingsForward(p.word, p.pos, p.typ, in.ids, in.types, in.S, H, x)
	nn.LayerNormForward(&p.embLN, x, rows, H, n.eps, x, &c.emb, e.Arena)
	nn.ApplyDropout(c.enc, nn.Site(-1, nn.SiteEmbeddings), x)
	for li := range p.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Only the CLS state of the last layer reaches the head, so the
		// last layer computes its queries, attention output and
		// feed-forward block for the CLS rows alone (its keys and values
		// still cover every token); the results are those of the full
		// layer.
		sq := in.S
		if li == len(p.layers)-1 && !n.allRows {
			sq = 1
		}
		x = nn.PostLNForward(&p.layers[li], x, sq, li, e, &c.layers[li])
	}
	// x holds the first sq rows of each sequence; the CLS state is row 0.
	c.top = x
	sq := in.S
	if len(p.layers) > 0 {
		sq = c.layers[len(p.layers)-1].QueryRows()
	}
	c.cls = make([]T, in.B*H)
	for b := 0; b < in.B; b++ {
		copy(c.cls[b*H:(b+1)*H], x[b*sq*H:])
	}
	feat := c.cls
	if p.pooler != nil {
		c.pooled = make([]T, in.B*H)
		nn.LinearForward(p.pooler, c.cls, in.B, c.pooled)
		for i, v := range c.pooled {
			c.pooled[i] = nn.Tanh(v)
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
	nn.LinearForward(&p.head, feat, in.B, c.pred)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the predictions is dpred.
func (n *network[T]) backward(ctx context.Context, c *forwardCache[T], dpred []T, g *params[T]) error {
	p, H := n.p, n.H
	in := c.in
	dfeat := make([]T, in.B*H)
	nn.LinearBackward(&p.head, &g.head, c.feat, dpred, in.B, dfeat)
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
		nn.LinearBackward(p.pooler, g.pooler, c.cls, dfeat, in.B, dcls)
	}
	a := n.buf
	// dx is the gradient of the current layer's output rows: at the top,
	// the CLS rows of the last layer.
	sq := in.S
	if len(p.layers) > 0 {
		sq = c.layers[len(p.layers)-1].QueryRows()
	}
	dx := a.Zeros(in.B * sq * H)
	for b := 0; b < in.B; b++ {
		copy(dx[b*sq*H:b*sq*H+H], dcls[b*H:(b+1)*H])
	}
	return n.backwardEncoder(ctx, c, dx, g)
}

// backwardEncoder accumulates into g the encoder's gradients, given dx, the
// gradient of the last layer's output rows (c.top).
func (n *network[T]) backwardEncoder(ctx context.Context, c *forwardCache[T], dx []T, g *params[T]) error {
	p, H := n.p, n.H
	in := c.in
	rows := in.B * in.S
	e := n.pass(c)
	w := nn.NewPostLNWork(e, n.I)
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		dx = nn.PostLNBackward(&p.layers[li], &g.layers[li], &c.layers[li], dx, li, e, w)
	}
	nn.ApplyDropout(c.enc, nn.Site(-1, nn.SiteEmbeddings), dx)
	nn.LayerNormBackward(&p.embLN, &g.embLN, &c.emb, dx, rows, H, dx)
	nn.TokenEmbeddingsBackward(g.word, g.pos, g.typ, in.ids, in.types, in.S, H, dx)
	return nil
}

// pass returns the encoder pass of forward cache c: its batch, dropout and
// GELU activation, with the network's buffers.
func (n *network[T]) pass(c *forwardCache[T]) *nn.EncoderPass[T] {
	return &nn.EncoderPass[T]{
		B: c.in.B, S: c.in.S, H: n.H, Heads: n.heads, KeyValid: c.in.keyValid, Eps: n.eps, Drop: c.enc,
		Act:   compute.GELU,
		Arena: n.buf, ActBuf: &n.geluBuf,
	}
}

// addInPlace adds src to dst element-wise.
func addInPlace[T nn.Float](dst, src []T) { nn.AddInPlace(dst, src) }

// mseLoss returns mean((pred−target)²) and its gradient 2(pred−target)/B
// (torch.nn.MSELoss with reduction "mean").
func mseLoss[T nn.Float](pred []T, target []float64) (float64, []T) {
	var loss float64
	d := make([]T, len(pred))
	for i, p := range pred {
		e := p - T(target[i])
		loss += float64(e * e)
		d[i] = 2 * e / T(len(pred))
	}
	return loss / float64(len(pred)), d
}
