package train

import (
	"context"
	"math"
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
}

// sopCache keeps every activation of a forward pass.
type sopCache[T nn.Float] struct {
	in     *sopBatch
	drop   nn.Dropout
	emb    []T // rows×E after LayerNorm and dropout
	embLN  nn.NormCache[T]
	layers []nn.PostLNCache[T]
	cls    []T // B×H: the last layer's CLS states
	pooled []T // B×H: tanh(pooler(cls))
	logits []T // B×2
}

// forward runs the classifier on a batch and keeps the activations; rng
// draws the dropout masks (nil: none, as in evaluation).
func (n *sopNet[T]) forward(ctx context.Context, in *sopBatch, rng *rand.Rand) (*sopCache[T], error) {
	p, E, H := n.p, n.E, n.H
	rows := in.B * in.S
	c := &sopCache[T]{in: in, layers: make([]nn.PostLNCache[T], n.layers), drop: nn.NewDropout(n.dropout, rng)}
	e := n.pass(c)
	a := e.Arena
	a.Reset()
	emb := a.Get(rows * E)
	nn.TokenEmbeddingsForward(p.word, p.pos, p.typ, in.ids, in.types, in.S, E, emb)
	nn.LayerNormForward(&p.embLN, emb, rows, E, n.eps, emb, &c.embLN, a)
	nn.ApplyDropout(c.drop, nn.Site(-1, nn.SiteEmbeddings), emb)
	c.emb = emb
	x := a.Get(rows * H)
	nn.LinearForward(&p.mapIn, emb, rows, x)
	for li := 0; li < n.layers; li++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Only the CLS state of the last application reaches the pooler,
		// so it computes its queries, attention output and feed-forward
		// block for the CLS rows alone (keys and values still cover every
		// token); the CLS results are those of the full layer.
		sq := in.S
		if li == n.layers-1 {
			sq = 1
		}
		x = nn.PostLNForward(&p.layer, x, sq, li, e, &c.layers[li])
	}
	sq := c.layers[n.layers-1].QueryRows()
	c.cls = make([]T, in.B*H)
	for b := 0; b < in.B; b++ {
		copy(c.cls[b*H:(b+1)*H], x[b*sq*H:])
	}
	c.pooled = make([]T, in.B*H)
	nn.LinearForward(&p.pooler, c.cls, in.B, c.pooled)
	for i, v := range c.pooled {
		c.pooled[i] = nn.Tanh(v)
	}
	c.logits = make([]T, in.B*2)
	nn.LinearForward(&p.head, c.pooled, in.B, c.logits)
	return c, nil
}

// backward accumulates into g the gradients of the loss whose gradient with
// respect to the logits is dlogits. The shared layer's gradients sum over
// its applications.
func (n *sopNet[T]) backward(ctx context.Context, c *sopCache[T], dlogits []T, g *sopParams[T]) error {
	p, E, H := n.p, n.E, n.H
	in := c.in
	rows := in.B * in.S
	dpooled := make([]T, in.B*H)
	nn.LinearBackward(&p.head, &g.head, c.pooled, dlogits, in.B, dpooled)
	for i := range dpooled {
		dpooled[i] *= 1 - c.pooled[i]*c.pooled[i]
	}
	dcls := make([]T, in.B*H)
	nn.LinearBackward(&p.pooler, &g.pooler, c.cls, dpooled, in.B, dcls)
	a := n.buf
	sq := c.layers[n.layers-1].QueryRows()
	dx := a.Zeros(in.B * sq * H)
	for b := 0; b < in.B; b++ {
		copy(dx[b*sq*H:b*sq*H+H], dcls[b*H:(b+1)*H])
	}
	e := n.pass(c)
	w := nn.NewPostLNWork(e, n.I)
	for li := n.layers - 1; li >= 0; li-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		dx = nn.PostLNBackward(&p.layer, &g.layer, &c.layers[li], dx, li, e, w)
	}
	demb := a.Get(rows * E)
	nn.LinearBackward(&p.mapIn, &g.mapIn, c.emb, dx, rows, demb)
	nn.ApplyDropout(c.drop, nn.Site(-1, nn.SiteEmbeddings), demb)
	nn.LayerNormBackward(&p.embLN, &g.embLN, &c.embLN, demb, rows, E, demb)
	nn.TokenEmbeddingsBackward(g.word, g.pos, g.typ, in.ids, in.types, in.S, E, demb)
	return nil
}

// pass returns the encoder pass of forward cache c: its batch, dropout and
// activation, with the network's buffers.
func (n *sopNet[T]) pass(c *sopCache[T]) *nn.EncoderPass[T] {
	return &nn.EncoderPass[T]{
		B: c.in.B, S: c.in.S, H: n.H, Heads: n.heads, KeyValid: c.in.keyValid, Eps: n.eps, Drop: c.drop,
		Act:   n.act,
		Arena: n.buf, ActBuf: &n.actBuf,
	}
}

// crossEntropy returns torch.nn.CrossEntropyLoss (mean reduction) of B×2
// logits against labels, and its gradient with respect to the logits,
// softmax − onehot over B. The log-softmax is computed in float64.
func crossEntropy[T nn.Float](logits []T, labels []int) (float64, []T) {
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
