package nn

import "github.com/storyeval/storyeval/encoders/compute"

// The blocks around a BERT-family encoder's layers, on a pass's backend:
// the token embeddings (BERT's and ALBERT's word + position + token type,
// LayerNorm, dropout) and the [CLS] rows with the tanh pooler.

// TokenEmbeddings is a BERT-family embedding block's parameters (or their
// gradients): three tables of width E and a LayerNorm.
type TokenEmbeddings[T Float] struct {
	Word, Pos, Type []T
	Norm            *Norm[T]
}

// tables returns the three tables as tensors of e's backend.
func (t TokenEmbeddings[T]) tables(e *EncoderPass[T]) []compute.Tensor {
	return []compute.Tensor{e.TensorOf(t.Word), e.TensorOf(t.Pos), e.TensorOf(t.Type)}
}

// embedRows is Embed's gather of the pass's rows: ids, positions mod S,
// token types.
func (e *EncoderPass[T]) embedRows(ids, types []int) ([][]int, []int) {
	return [][]int{ids, nil, types}, []int{0, e.S, 0}
}

// EmbeddingsForward returns LN(word[ids] + pos[r mod S] + type[types])
// (B·S rows of width E, eps the pass's), dropped out on the embeddings'
// site, keeping the LayerNorm's statistics in s.
func EmbeddingsForward[T Float](e *EncoderPass[T], t TokenEmbeddings[T], ids, types []int, E int, s *NormSave) compute.Tensor {
	be, rows := e.TrainBackend(), e.B*e.S
	x := e.Buffer(rows * E)
	idx, period := e.embedRows(ids, types)
	be.Embed(x, E, t.tables(e), idx, period)
	*s = NormSave{XHat: e.Buffer(rows * E), RStd: e.Buffer(rows)}
	t.Norm.Tensors(e.TensorOf).Forward(be, x, x, E, e.Eps, s)
	be.Dropout(x, e.Drop, Site(-1, SiteEmbeddings))
	return x
}

// EmbeddingsBackward accumulates into g the gradients of the block given
// dx, the gradient of its output (overwritten).
func EmbeddingsBackward[T Float](e *EncoderPass[T], t, g TokenEmbeddings[T], ids, types []int, E int, s *NormSave, dx compute.Tensor) {
	be := e.TrainBackend()
	be.Dropout(dx, e.Drop, Site(-1, SiteEmbeddings))
	t.Norm.Tensors(e.TensorOf).Backward(be, g.Norm.Tensors(e.TensorOf), s, dx, dx, E)
	idx, period := e.embedRows(ids, types)
	be.EmbedBackward(g.tables(e), E, idx, period, dx)
}

// PoolerSave keeps the pooler block's activations.
type PoolerSave struct {
	rows             []int
	CLS, Pre, Pooled compute.Tensor
}

// PoolerForward gathers each sequence's [CLS] row from x (the last layer's
// output, sq rows per sequence) and, with a pooler, returns
// tanh(pooler(cls)) (BertPooler, AlbertModel's pooler); without one, the
// [CLS] rows.
func PoolerForward[T Float](e *EncoderPass[T], x compute.Tensor, sq int, pooler *Linear[T], s *PoolerSave) compute.Tensor {
	be, B, H := e.TrainBackend(), e.B, e.H
	s.rows = make([]int, B)
	for b := range s.rows {
		s.rows[b] = b * sq
	}
	s.CLS = e.Buffer(B * H)
	be.Rows(s.CLS, x, H, s.rows)
	if pooler == nil {
		return s.CLS
	}
	s.Pre, s.Pooled = e.Buffer(B*H), e.Buffer(B*H)
	pooler.Tensors(e.TensorOf).ForwardSave(be, s.Pooled, s.Pre, s.CLS, B, compute.Tanh)
	return s.Pooled
}

// PoolerBackward accumulates the pooler's gradients into g (nil without a
// pooler) given d, the gradient of PoolerForward's output (overwritten),
// and returns the gradient of x (rows rows, zero off the [CLS] rows).
func PoolerBackward[T Float](e *EncoderPass[T], pooler, g *Linear[T], s *PoolerSave, d compute.Tensor, rows int) compute.Tensor {
	be, B, H := e.TrainBackend(), e.B, e.H
	dcls := d
	if pooler != nil {
		be.BiasActBackward(d, e.TensorOf(g.B), d, s.Pre, H, compute.Tanh)
		dcls = e.Buffer(B * H)
		pooler.Tensors(e.TensorOf).Backward(be, LinearT{W: e.TensorOf(g.W)}, s.CLS, d, B, dcls, 0)
	}
	dx := e.Buffer(rows * H)
	be.Zero(dx)
	be.RowsBackward(dx, dcls, H, s.rows)
	return dx
}
