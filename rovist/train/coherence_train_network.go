package train

import (
	"context"
	"math/rand"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
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
type sopNet[T nn.Float] struct {
	p              *sopParams[T]
	E, H, I, heads int
	layers         int // applications of the shared layer
	eps            float64
	act            compute.Activation
	// dropout is the encoder's dropout in training (hidden and attention
	// probabilities, as AlbertModel in train mode; 0: none).
	dropout float64
	// buf keeps the buffers of a step for the next one (nil: allocate).
	buf *nn.Arena[T]
	// actBuf holds one application's activation output at a time, in the
	// forward and the backward pass alike: it is recomputed rather than
	// kept (rows×intermediate per application).
	actBuf []T
	// dev runs the passes (nil: the host in T).
	dev *nn.Device
}

// sopCache keeps every activation of a forward pass, as tensors of the
// network's backend.
type sopCache[T nn.Float] struct {
	in     *sopBatch
	drop   nn.Dropout
	emb    compute.Tensor // rows×E after LayerNorm and dropout
	embLN  nn.NormSave
	layers []nn.PostLNCache[T]
	pool   nn.PoolerSave
	pooled compute.Tensor // B×H: tanh(pooler(cls))
	logits []T            // B×2, on the host
}

// embeddings returns the embedding block's parameters.
func (p *sopParams[T]) embeddings() nn.TokenEmbeddings[T] {
	return nn.TokenEmbeddings[T]{Word: p.Word, Pos: p.Pos, Type: p.Type, Norm: &p.EmbNorm}
}

// forward runs the classifier on a batch and keeps the activations; rng
// draws the dropout masks (nil: none, as in evaluation).
func (n *sopNet[T]) forward(ctx context.Context, in *sopBatch, rng *rand.Rand) (*sopCache[T], error) {
	p, E, H := n.p, n.E, n.H
	rows := in.B * in.S
	c := &sopCache[T]{in: in, layers: make([]nn.PostLNCache[T], n.layers), drop: nn.NewDropout(n.dropout, rng)}
	e := n.pass(c)
	e.Arena.Reset()
	be, t := e.TrainBackend(), e.TensorOf
	c.emb = nn.EmbeddingsForward(e, p.embeddings(), in.ids, in.types, E, &c.embLN)
	x := e.Buffer(rows * H)
	p.MapIn.Tensors(t).Forward(be, x, c.emb, rows, compute.Identity)
	layer := p.layer().Tensors(t)
	sq := in.S
	for li := 0; li < n.layers; li++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if li == n.layers-1 {
			sq = 1
		}
		x = nn.PostLNForwardT(layer, x, sq, li, e, &c.layers[li])
	}
	c.pooled = nn.PoolerForward(e, x, sq, p.Pooler, &c.pool)
	logits := e.Buffer(in.B * 2)
	p.head.Tensors(t).Forward(be, logits, c.pooled, in.B, compute.Identity)
	c.logits = e.Download(logits, in.B*2)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the logits is dlogits.
func (n *sopNet[T]) backward(ctx context.Context, c *sopCache[T], dlogits []T, g *sopParams[T]) error {
	p, E, H := n.p, n.E, n.H
	in := c.in
	rows := in.B * in.S
	e := n.pass(c)
	be, t := e.TrainBackend(), e.TensorOf
	dpooled := e.Buffer(in.B * H)
	p.head.Tensors(t).Backward(be, g.head.Tensors(t), c.pooled, e.Upload(dlogits), in.B, dpooled, 0)
	dx := nn.PoolerBackward(e, p.Pooler, g.Pooler, &c.pool, dpooled, in.B*c.layers[n.layers-1].QueryRows())
	w := nn.NewPostLNWork(e, n.I)
	layer, glayer := p.layer().Tensors(t), g.layer().Tensors(t)
	for li := n.layers - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		dx = nn.PostLNBackwardT(layer, glayer, &c.layers[li], dx, li, e, w)
	}
	demb := e.Buffer(rows * E)
	p.MapIn.Tensors(t).Backward(be, g.MapIn.Tensors(t), c.emb, dx, rows, demb, 0)
	nn.EmbeddingsBackward(e, p.embeddings(), g.embeddings(), in.ids, in.types, E, &c.embLN, demb)
	return nil
}

// pass returns the encoder pass of forward cache c: its batch, dropout and
// activation, with the network's buffers.
func (n *sopNet[T]) pass(c *sopCache[T]) *nn.EncoderPass[T] {
	e := &nn.EncoderPass[T]{
		B: c.in.B, S: c.in.S, H: n.H, Heads: n.heads, KeyValid: c.in.keyValid, Eps: n.eps, Drop: c.drop,
		Act:   n.act,
		Arena: n.buf, ActBuf: &n.actBuf,
	}
	nn.Attach(e, n.dev)
	return e
}

// crossEntropy returns torch.nn.CrossEntropyLoss (mean reduction) of B×2
// logits against labels, and its gradient with respect to the logits,
// softmax − onehot over B (compute.SoftmaxCrossEntropyHost: the
// log-softmax in float64).
func crossEntropy[T nn.Float](logits []T, labels []int) (float64, []T) {
	d := make([]T, len(logits))
	loss, _, _ := compute.SoftmaxCrossEntropyHost(d, logits, 2, labels)
	return loss, d
}
