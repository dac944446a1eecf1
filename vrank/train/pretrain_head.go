package train

import (
	"math"

	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/internal/parallel"
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

func newMLMHead[T nn.Float](H, V int) *mlmHead[T] {
	return &mlmHead[T]{dense: nn.NewLinear[T](H, H), norm: nn.NewNorm[T](H), bias: make([]T, V)}
}

func (h *mlmHead[T]) zeroLike() *mlmHead[T] {
	return &mlmHead[T]{dense: h.dense.ZeroLike(), norm: h.norm.ZeroLike(), bias: make([]T, len(h.bias))}
}

// tensors lists the head's parameters under their BertForMaskedLM names.
func (h *mlmHead[T]) tensors() []nn.Param[T] {
	H := len(h.norm.G)
	return []nn.Param[T]{
		{Name: mlmDenseName + ".weight", Shape: []int{H, H}, Data: h.dense.W},
		{Name: mlmDenseName + ".bias", Shape: []int{H}, Data: h.dense.B},
		{Name: mlmNormName + ".weight", Shape: []int{H}, Data: h.norm.G},
		{Name: mlmNormName + ".bias", Shape: []int{H}, Data: h.norm.B},
		{Name: mlmBiasName, Shape: []int{len(h.bias)}, Data: h.bias},
	}
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
// rows.
type mlmCache[T nn.Float] struct {
	n      int
	x      []T // n×H: the selected rows of the encoder output
	pre    []T // n×H: dense output before the activation
	act    []T // n×H: the activation's output
	t      []T // n×H: the LayerNorm output (the decoder's input)
	norm   nn.NormCache[T]
	logits []T // n×V
}

// forward applies the head to the n rows of x (n×H) and returns the
// vocabulary logits (n×V); word is the tied decoder weight [V, H].
func (h *mlmHead[T]) forward(x []T, n int, word []T, eps float64) *mlmCache[T] {
	H, V := len(h.norm.G), len(h.bias)
	c := &mlmCache[T]{n: n, x: x, pre: make([]T, n*H), act: make([]T, n*H), t: make([]T, n*H), logits: make([]T, n*V)}
	nn.LinearForward(&h.dense, x, n, c.pre)
	nn.GELUForward(c.pre, c.act)
	nn.LayerNormForward(&h.norm, c.act, n, H, eps, c.t, &c.norm, nil)
	dec := nn.Linear[T]{W: word, B: h.bias, Out: V, In: H}
	nn.LinearForward(&dec, c.t, n, c.logits)
	return c
}

// backward accumulates the head's gradients into g, the decoder's weight
// gradient into gWord (the tied word embeddings' gradient), and returns the
// gradient of the head's input rows (n×H).
func (h *mlmHead[T]) backward(c *mlmCache[T], dlogits, word []T, g *mlmHead[T], gWord []T) []T {
	H, V := len(h.norm.G), len(h.bias)
	n := c.n
	dec := nn.Linear[T]{W: word, B: h.bias, Out: V, In: H}
	gdec := nn.Linear[T]{W: gWord, B: g.bias, Out: V, In: H}
	dt := make([]T, n*H)
	nn.LinearBackward(&dec, &gdec, c.t, dlogits, n, dt)
	nn.LayerNormBackward(&h.norm, &g.norm, &c.norm, dt, n, H, dt)
	nn.GELUBackward(c.pre, dt)
	dx := make([]T, n*H)
	nn.LinearBackward(&h.dense, &g.dense, c.x, dt, n, dx)
	return dx
}

// mlmLoss returns torch.nn.CrossEntropyLoss (mean over the n rows) of the
// logits (n×V) against labels, its gradient with respect to the logits
// (softmax − onehot over n), and the number of rows whose argmax is the
// label. The log-softmax of each row is computed in float64.
func mlmLoss[T nn.Float](logits []T, labels []int, V int) (loss float64, d []T, correct int) {
	n := len(labels)
	d = make([]T, len(logits))
	losses := make([]float64, n)
	hits := make([]bool, n)
	parallel.Chunks(n, 4, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			row, dr := logits[r*V:(r+1)*V], d[r*V:(r+1)*V]
			m, arg := math.Inf(-1), 0
			for j, v := range row {
				if float64(v) > m {
					m, arg = float64(v), j
				}
			}
			var sum float64
			for _, v := range row {
				sum += math.Exp(float64(v) - m)
			}
			lse := m + math.Log(sum)
			losses[r] = lse - float64(row[labels[r]])
			hits[r] = arg == labels[r]
			for j, v := range row {
				dr[j] = T(math.Exp(float64(v)-lse) / float64(n))
			}
			dr[labels[r]] -= T(1 / float64(n))
		}
	})
	for r := range n {
		loss += losses[r]
		if hits[r] {
			correct++
		}
	}
	return loss / float64(n), d, correct
}
