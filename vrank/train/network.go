package train

import (
	"context"
	"math/rand"
	"slices"

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
	// be runs the passes (nil: the host in T, compute.HostBackend[T]) and
	// mirror holds its copies of the parameters, gradients and buffers
	// when it is not a host backend (nil: the slices themselves).
	be     compute.TrainBackend
	mirror *nn.Mirror
}

// forwardCache keeps every activation of a training forward pass, as
// tensors of the network's backend.
type forwardCache[T nn.Float] struct {
	in     *batchInput
	enc    nn.Dropout
	emb    nn.NormSave
	layers []nn.PostLNCache[T]
	top    compute.Tensor // the last layer's output rows (B·sq×H)
	cls    compute.Tensor // B×H: the raw CLS states
	pre    compute.Tensor // B×H: pooler(cls) before tanh, with the pooler head
	pooled compute.Tensor // B×H: tanh(pooler(cls))
	drop   compute.Tensor // B×H: the dropout multipliers (nil without dropout)
	feat   compute.Tensor // B×H: the head's input
	predT  compute.Tensor // B
	pred   []T            // B: the predictions on the host
}

// hostTop returns the last layer's output rows on the host (a host
// backend's own slice).
func (c *forwardCache[T]) hostTop() []T {
	h, _ := compute.HostValues[T](c.top)
	return h
}

// forward runs the regressor on a batch and keeps the activations. rng
// draws the dropout mask (nil: no dropout, as in evaluation).
func (n *network[T]) forward(ctx context.Context, in *batchInput, rng *rand.Rand) (*forwardCache[T], error) {
	p, H := n.p, n.H
	rows := in.B * in.S
	c := &forwardCache[T]{in: in, layers: make([]nn.PostLNCache[T], len(p.layers)), enc: nn.NewDropout(n.encDropout, rng)}
	e := n.pass(c)
	e.Arena.Reset()
	be, t := e.TrainBackend(), e.TensorOf
	x := e.Buffer(rows * H)
	be.Embed(x, H, []compute.Tensor{t(p.word), t(p.pos), t(p.typ)}, [][]int{in.ids, nil, in.types}, []int{0, in.S, 0})
	c.emb = nn.NormSave{XHat: e.Buffer(rows * H), RStd: e.Buffer(rows)}
	p.embLN.Tensors(t).Forward(be, x, x, H, n.eps, &c.emb)
	be.Dropout(x, c.enc, nn.Site(-1, nn.SiteEmbeddings))
	for li := range p.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sq := in.S
		if li == len(p.layers)-1 && !n.allRows {
			sq = 1
		}
		x = nn.PostLNForwardT(p.layers[li].Tensors(t), x, sq, li, e, &c.layers[li])
	}
	c.top = x
	c.cls = e.Buffer(in.B * H)
	be.Rows(c.cls, x, H, n.clsRows(c))
	feat := c.cls
	if p.pooler != nil {
		c.pre, c.pooled = e.Buffer(in.B*H), e.Buffer(in.B*H)
		pl := p.pooler.Tensors(t)
		be.Gemm(false, true, in.B, H, H, 1, c.cls, H, pl.W, H, 0, c.pre, H)
		be.BiasActSave(c.pooled, c.pre, pl.B, H, compute.Tanh)
		feat = c.pooled
	}
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
		c.drop = n.upload(mask)
		c.feat = e.Buffer(in.B * H)
		be.Copy(c.feat, feat)
		be.Mul(c.feat, c.drop)
		feat = c.feat
	}
	c.feat = feat
	c.predT = e.Buffer(in.B)
	p.head.Tensors(t).Forward(be, c.predT, c.feat, in.B, compute.Identity)
	c.pred = n.download(c.predT, in.B)
	return c, nil
}

// clsRows lists the last layer's [CLS] rows.
func (n *network[T]) clsRows(c *forwardCache[T]) []int {
	sq := c.in.S
	if len(c.layers) > 0 {
		sq = c.layers[len(c.layers)-1].QueryRows()
	}
	idx := make([]int, c.in.B)
	for b := range idx {
		idx[b] = b * sq
	}
	return idx
}

// upload returns host values as a new tensor of the network's backend (the
// slice itself on the host).
func (n *network[T]) upload(x []T) compute.Tensor {
	if n.mirror == nil {
		return compute.HostTensor[T](x)
	}
	return n.be.Upload(any(x).([]float32))
}

// download returns a copy of the first k values of a tensor on the host.
func (n *network[T]) download(t compute.Tensor, k int) []T {
	if n.mirror == nil {
		h, _ := compute.HostValues[T](t)
		return slices.Clone(h[:k])
	}
	out := make([]float32, k)
	n.be.Download(out, t)
	return any(out).([]T)
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the predictions is dpred.
func (n *network[T]) backward(ctx context.Context, c *forwardCache[T], dpred []T, g *params[T]) error {
	p, H := n.p, n.H
	in := c.in
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	dfeat := e.Buffer(in.B * H)
	p.head.Tensors(t).Backward(be, g.head.Tensors(t), c.feat, n.upload(dpred), in.B, dfeat, 0)
	if c.drop != nil {
		be.Mul(dfeat, c.drop)
	}
	dcls := dfeat
	if p.pooler != nil {
		be.BiasActBackward(dfeat, t(g.pooler.B), dfeat, c.pre, H, compute.Tanh)
		dcls = e.Buffer(in.B * H)
		p.pooler.Tensors(t).Backward(be, nn.LinearT{W: t(g.pooler.W)}, c.cls, dfeat, in.B, dcls, 0)
	}
	dx := e.Buffer(c.top.Len())
	be.Zero(dx)
	be.RowsBackward(dx, dcls, H, n.clsRows(c))
	return n.backwardEncoder(ctx, c, dx, g)
}

// backwardEncoder accumulates into g the encoder's gradients given dx, the
// gradient of the last layer's output rows (overwritten).
func (n *network[T]) backwardEncoder(ctx context.Context, c *forwardCache[T], dx compute.Tensor, g *params[T]) error {
	p, H := n.p, n.H
	in := c.in
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	w := nn.NewPostLNWork(e, n.I)
	for li := len(p.layers) - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		dx = nn.PostLNBackwardT(p.layers[li].Tensors(t), g.layers[li].Tensors(t), &c.layers[li], dx, li, e, w)
	}
	be.Dropout(dx, c.enc, nn.Site(-1, nn.SiteEmbeddings))
	p.embLN.Tensors(t).Backward(be, g.embLN.Tensors(t), &c.emb, dx, dx, H)
	be.EmbedBackward([]compute.Tensor{t(g.word), t(g.pos), t(g.typ)}, H, [][]int{in.ids, nil, in.types}, []int{0, in.S, 0}, dx)
	return nil
}

// pass returns the encoder pass of a forward cache's batch: BERT's
// post-LN layers with the exact GELU, on the network's backend and arena.
func (n *network[T]) pass(c *forwardCache[T]) *nn.EncoderPass[T] {
	e := &nn.EncoderPass[T]{
		B: c.in.B, S: c.in.S, H: n.H, Heads: n.heads, KeyValid: c.in.keyValid, Eps: n.eps, Drop: c.enc,
		Act: compute.GELU, Arena: n.buf, ActBuf: &n.geluBuf, Backend: n.be,
	}
	if n.mirror != nil {
		e.Tensor = func(x []T) compute.Tensor { return n.mirror.Tensor(any(x).([]float32)) }
	}
	return e
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
