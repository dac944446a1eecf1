package train

import (
	"context"
	"math/rand"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// mlmHead is BERT's masked-language-model head (transformers'
// BertOnlyMLMHead): the transform dense H→H, the activation (GELU),
// LayerNorm, then the decoder H→V whose weight is tied to the word
// embeddings, plus its own bias.
type mlmHead[T nn.Float] struct {
	dense nn.Linear[T]
	norm  nn.Norm[T]
	bias  []T
}

// Checkpoint names of BertForMaskedLM's head.
const (
	mlmDenseName = "cls.predictions.transform.dense"
	mlmNormName  = "cls.predictions.transform.LayerNorm"
	mlmBiasName  = "cls.predictions.bias"
)

// newMLMHead returns a zeroed head of width H over a vocabulary of V.
func newMLMHead[T nn.Float](H, V int) *mlmHead[T] {
	h := &mlmHead[T]{}
	h.visit(nn.Allocator[T]{}, H, V)
	return h
}

func (h *mlmHead[T]) zeroLike() *mlmHead[T] { return newMLMHead[T](len(h.norm.G), len(h.bias)) }

// tensors lists the head's parameters under their BertForMaskedLM names.
func (h *mlmHead[T]) tensors() []nn.Param[T] {
	return nn.Collect(func(add nn.TensorNamer[T]) { h.visit(nn.Lister[T]{Add: add}, len(h.norm.G), len(h.bias)) })
}

// visit is the head's parameter walk, in BertForMaskedLM's state_dict
// order; the decoder weight is the word embeddings', listed by BERT's walk.
func (h *mlmHead[T]) visit(w nn.Walker[[]T, nn.Linear[T], nn.Norm[T]], H, V int) {
	w.Linear(mlmDenseName, &h.dense, H, H)
	w.Norm(mlmNormName, &h.norm, H)
	w.Tensor(mlmBiasName, &h.bias, V)
}

// initRandom initialises the head as transformers' _init_weights does for a
// new BertOnlyMLMHead: normal(0, std) dense weight, zero biases, unit
// LayerNorm.
func (h *mlmHead[T]) initRandom(next func() float64, std float64) {
	for i := range h.dense.W {
		h.dense.W[i] = T(next() * std)
	}
	clear(h.dense.B)
	for i := range h.norm.G {
		h.norm.G[i], h.norm.B[i] = 1, 0
	}
	clear(h.bias)
}

// mlmCache keeps the head's activations of a forward pass over n selected
// rows, as tensors of the pass's backend.
type mlmCache[T nn.Float] struct {
	n      int
	x      compute.Tensor // n×H: the selected rows of the encoder output
	pre    compute.Tensor // n×H: dense output before the activation
	act    compute.Tensor // n×H: the activation's output
	t      compute.Tensor // n×H: the LayerNorm output (the decoder's input)
	norm   nn.NormSave
	logits compute.Tensor // n×V
}

// decoder is the head's tied decoder: the word embeddings [V, H] and the
// head's bias.
func (h *mlmHead[T]) decoder(e *nn.EncoderPass[T], word, bias []T) nn.LinearT {
	return nn.LinearT{W: e.TensorOf(word), B: e.TensorOf(bias), Out: len(h.bias), In: len(h.norm.G)}
}

// forward applies the head to the n rows of x (n×H) on pass e and returns
// the vocabulary logits (n×V); word is the tied decoder weight [V, H].
func (h *mlmHead[T]) forward(e *nn.EncoderPass[T], x compute.Tensor, n int, word []T, eps float64) *mlmCache[T] {
	H, V := len(h.norm.G), len(h.bias)
	be, t := e.TrainBackend(), e.TensorOf
	c := &mlmCache[T]{n: n, x: x, pre: e.Buffer(n * H), act: e.Buffer(n * H), t: e.Buffer(n * H), logits: e.Buffer(n * V)}
	h.dense.Tensors(t).ForwardSave(be, c.act, c.pre, x, n, compute.GELU)
	c.norm = nn.NormSave{XHat: e.Buffer(n * H), RStd: e.Buffer(n)}
	h.norm.Tensors(t).Forward(be, c.t, c.act, H, eps, &c.norm)
	h.decoder(e, word, h.bias).Forward(be, c.logits, c.t, n, compute.Identity)
	return c
}

// backward accumulates the head's gradients into g, the decoder's weight
// gradient into gWord (the tied word embeddings' gradient), and returns the
// gradient of the head's input rows (n×H).
func (h *mlmHead[T]) backward(e *nn.EncoderPass[T], c *mlmCache[T], dlogits compute.Tensor, word []T, g *mlmHead[T], gWord []T) compute.Tensor {
	H := len(h.norm.G)
	n := c.n
	be, t := e.TrainBackend(), e.TensorOf
	dt := e.Buffer(n * H)
	h.decoder(e, word, h.bias).Backward(be, h.decoder(e, gWord, g.bias), c.t, dlogits, n, dt, 0)
	h.norm.Tensors(t).Backward(be, g.norm.Tensors(t), &c.norm, dt, dt, H)
	be.BiasActBackward(dt, t(g.dense.B), dt, c.pre, H, compute.GELU)
	dx := e.Buffer(n * H)
	h.dense.Tensors(t).Backward(be, nn.LinearT{W: t(g.dense.W)}, c.x, dt, n, dx, 0)
	return dx
}

// mlmForward runs the encoder and the head on a masked batch: the selected
// rows of the last layer's output through the head, and the cross-entropy
// of their logits against the labels (TrainBackend.SoftmaxCrossEntropy),
// whose gradient it keeps in dlogits.
func mlmForward[T nn.Float](ctx context.Context, net *network[T], h *mlmHead[T], mb *maskedBatch, rng *rand.Rand) (c *forwardCache[T], hc *mlmCache[T], dlogits compute.Tensor, loss float64, correct int, err error) {
	c, err = net.forward(ctx, mb.in, rng)
	if err != nil {
		return nil, nil, nil, 0, 0, err
	}
	e := net.pass(c)
	be, H, n := e.TrainBackend(), net.H, len(mb.rows)
	sel := e.Buffer(n * H)
	be.Rows(sel, c.top, H, mb.rows)
	hc = h.forward(e, sel, n, net.p.Word, net.eps)
	dlogits = e.Buffer(hc.logits.Len())
	loss, _, correct = be.SoftmaxCrossEntropy(dlogits, hc.logits, len(h.bias), mb.labels)
	return c, hc, dlogits, loss, correct, nil
}

// mlmBackward accumulates into g and gh the gradients of mlmForward's loss.
func mlmBackward[T nn.Float](ctx context.Context, net *network[T], h *mlmHead[T], c *forwardCache[T], hc *mlmCache[T], mb *maskedBatch, dlogits compute.Tensor, g *params[T], gh *mlmHead[T]) error {
	e := net.pass(c)
	be := e.TrainBackend()
	dsel := h.backward(e, hc, dlogits, net.p.Word, gh, g.Word)
	dx := e.Buffer(c.top.Len())
	be.Zero(dx)
	be.RowsBackward(dx, dsel, net.H, mb.rows)
	return net.backwardEncoder(ctx, c, dx, g)
}
