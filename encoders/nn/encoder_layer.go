package nn

// EncoderLayer holds one transformer encoder layer's parameters: the
// attention's query, key, value and output projections, the feed-forward
// block's two linear layers and the two LayerNorms. In a post-LN layer
// (BERT's BertLayer, ALBERT's AlbertLayer) LN1 follows the attention block
// and LN2 the feed-forward block; in a pre-LN layer (ViT's ViTLayer) LN1
// precedes the attention block (layernorm_before) and LN2 the feed-forward
// block (layernorm_after). The same type holds the layer's gradients.
type EncoderLayer[T Float] struct {
	Q, K, V, O Linear[T]
	LN1        Norm[T]
	FC1, FC2   Linear[T]
	LN2        Norm[T]
}

// NewEncoderLayer returns a zeroed layer of width hidden whose feed-forward
// block is intermediate wide.
func NewEncoderLayer[T Float](hidden, intermediate int) EncoderLayer[T] {
	H, I := hidden, intermediate
	return EncoderLayer[T]{
		Q: NewLinear[T](H, H), K: NewLinear[T](H, H), V: NewLinear[T](H, H), O: NewLinear[T](H, H),
		LN1: NewNorm[T](H),
		FC1: NewLinear[T](I, H), FC2: NewLinear[T](H, I),
		LN2: NewNorm[T](H),
	}
}

// ZeroLike returns a zeroed layer of l's shapes (its gradient).
func (l *EncoderLayer[T]) ZeroLike() EncoderLayer[T] {
	return EncoderLayer[T]{
		Q: l.Q.ZeroLike(), K: l.K.ZeroLike(), V: l.V.ZeroLike(), O: l.O.ZeroLike(),
		LN1: l.LN1.ZeroLike(),
		FC1: l.FC1.ZeroLike(), FC2: l.FC2.ZeroLike(),
		LN2: l.LN2.ZeroLike(),
	}
}
