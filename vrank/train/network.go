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
// the parameters and the sizes the passes need, and where they run.
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
	// dev runs the passes (nil: the host in T, compute.HostBackend[T]).
	dev *nn.Device
}

// forwardCache keeps every activation of a training forward pass, as
// tensors of the network's backend.
type forwardCache[T nn.Float] struct {
	in     *batchInput
	enc    nn.Dropout
	emb    nn.NormSave
	layers []nn.PostLNCache[T]
	top    compute.Tensor // the last layer's output rows (B·sq×H)
	pool   nn.PoolerSave
	drop   compute.Tensor // B×H: the dropout multipliers (nil without dropout)
	feat   compute.Tensor // B×H: the head's input
	pred   []T            // B: the predictions, on the host
}

// hostTop returns the last layer's output rows on the host (a host
// backend's own slice).
func (c *forwardCache[T]) hostTop() []T {
	h, _ := compute.HostValues[T](c.top)
	return h
}

// embeddings returns the embedding block's parameters.
func (p *params[T]) embeddings() nn.TokenEmbeddings[T] {
	return nn.TokenEmbeddings[T]{Word: p.Word, Pos: p.Pos, Type: p.Type, Norm: &p.EmbNorm}
}

// forward runs the regressor on a batch and keeps the activations. rng
// draws the dropout mask (nil: no dropout, as in evaluation).
func (n *network[T]) forward(ctx context.Context, in *batchInput, rng *rand.Rand) (*forwardCache[T], error) {
	p, H := n.p, n.H
	c := &forwardCache[T]{in: in, layers: make([]nn.PostLNCache[T], len(p.Layers)), enc: nn.NewDropout(n.encDropout, rng)}
	e := n.pass(c)
	e.Arena.Reset()
	be, t := e.TrainBackend(), e.TensorOf
	x := nn.EmbeddingsForward(e, p.embeddings(), in.ids, in.types, H, &c.emb)
	sq := in.S
	for li := range p.Layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if li == len(p.Layers)-1 && !n.allRows {
			sq = 1
		}
		x = nn.PostLNForwardT(p.Layers[li].Tensors(t), x, sq, li, e, &c.layers[li])
	}
	c.top = x
	c.feat = nn.PoolerForward(e, x, sq, p.Pooler, &c.pool)
	if rng != nil && n.dropout > 0 {
		// torch.nn.Dropout: zero each element with probability p and scale
		// the others by 1/(1−p), drawn on the host from the step's stream.
		mask := make([]T, in.B*H)
		keep := T(1 / (1 - n.dropout))
		for i := range mask {
			if rng.Float64() >= n.dropout {
				mask[i] = keep
			}
		}
		c.drop = e.Upload(mask)
		feat := e.Buffer(in.B * H)
		be.Copy(feat, c.feat)
		be.Mul(feat, c.drop)
		c.feat = feat
	}
	pred := e.Buffer(in.B)
	p.head.Tensors(t).Forward(be, pred, c.feat, in.B, compute.Identity)
	c.pred = e.Download(pred, in.B)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the predictions is dpred.
func (n *network[T]) backward(ctx context.Context, c *forwardCache[T], dpred []T, g *params[T]) error {
	p, H := n.p, n.H
	in := c.in
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	dfeat := e.Buffer(in.B * H)
	p.head.Tensors(t).Backward(be, g.head.Tensors(t), c.feat, e.Upload(dpred), in.B, dfeat, 0)
	if c.drop != nil {
		be.Mul(dfeat, c.drop)
	}
	return n.backwardEncoder(ctx, c, nn.PoolerBackward(e, p.Pooler, g.Pooler, &c.pool, dfeat, c.top.Len()/H), g)
}

// backwardEncoder accumulates into g the encoder's gradients given dx, the
// gradient of the last layer's output rows (overwritten).
func (n *network[T]) backwardEncoder(ctx context.Context, c *forwardCache[T], dx compute.Tensor, g *params[T]) error {
	p := n.p
	e := n.pass(c)
	t := e.TensorOf
	w := nn.NewPostLNWork(e, n.I)
	for li := len(p.Layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		dx = nn.PostLNBackwardT(p.Layers[li].Tensors(t), g.Layers[li].Tensors(t), &c.layers[li], dx, li, e, w)
	}
	nn.EmbeddingsBackward(e, p.embeddings(), g.embeddings(), c.in.ids, c.in.types, n.H, &c.emb, dx)
	return nil
}

// pass returns the encoder pass of a forward cache's batch: BERT's
// post-LN layers with the exact GELU, on the network's backend and arena.
func (n *network[T]) pass(c *forwardCache[T]) *nn.EncoderPass[T] {
	e := &nn.EncoderPass[T]{
		B: c.in.B, S: c.in.S, H: n.H, Heads: n.heads, KeyValid: c.in.keyValid, Eps: n.eps, Drop: c.enc,
		Act: compute.GELU, Arena: n.buf, ActBuf: &n.geluBuf,
	}
	nn.Attach(e, n.dev)
	return e
}

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
