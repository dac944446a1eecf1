package nn

import "fmt"

// BERTShape is the part of a BertConfig that fixes the parameters' shapes.
type BERTShape struct {
	Vocab, Positions, Types int // embedding tables' rows
	Hidden, Intermediate    int
	Layers                  int
}

// BERTSlots points at a BertModel's blocks. Layer returns layer i's slots
// (i < Layers); a nil Pooler is a model without pooler.
type BERTSlots[E, L, N any] struct {
	Word, Pos, Type *E
	EmbNorm         *N
	Layer           func(i int) LayerSlots[L, N]
	Pooler          *L
}

// BertModel's checkpoint names (transformers' BertModel state_dict) that
// callers probe for: the embedding tables (where a checkpoint's prefix is
// found, the configuration's shape checks) and the optional pooler.
const (
	BERTWordEmbeddings      = "embeddings.word_embeddings.weight"
	BERTPositionEmbeddings  = "embeddings.position_embeddings.weight"
	BERTTokenTypeEmbeddings = "embeddings.token_type_embeddings.weight"
	BERTPooler              = "pooler.dense"
)

// BERTLayerNames are the state_dict names of a BertLayer's blocks.
var BERTLayerNames = EncoderLayerNames{
	Query: "attention.self.query", Key: "attention.self.key", Value: "attention.self.value",
	AttnOut: "attention.output.dense", LN1: "attention.output.LayerNorm",
	FFNIn: "intermediate.dense", FFNOut: "output.dense", LN2: "output.LayerNorm",
}

// BERTLayerPrefix is the state_dict prefix of layer i's blocks.
func BERTLayerPrefix(i int) string { return fmt.Sprintf("encoder.layer.%d.", i) }

// WalkBERT visits a BertModel's parameters under prefix ("" or e.g.
// "bert." in a BertFor… checkpoint) in state_dict order: embeddings, their
// LayerNorm, the post-LN layers, the pooler. It is BERT's one parameter
// walk: encoders.NewBERTFrom reads an inference model through it and the
// Vrank trainers list, allocate and save theirs through it.
func WalkBERT[E, L, N any](w Walker[E, L, N], prefix string, d BERTShape, s BERTSlots[E, L, N]) {
	H := d.Hidden
	w.Tensor(prefix+BERTWordEmbeddings, s.Word, d.Vocab, H)
	w.Tensor(prefix+BERTPositionEmbeddings, s.Pos, d.Positions, H)
	w.Tensor(prefix+BERTTokenTypeEmbeddings, s.Type, d.Types, H)
	w.Norm(prefix+"embeddings.LayerNorm", s.EmbNorm, H)
	for i := 0; i < d.Layers; i++ {
		WalkEncoderLayer(w, prefix+BERTLayerPrefix(i), BERTLayerNames, s.Layer(i), H, d.Intermediate)
	}
	if s.Pooler != nil {
		w.Linear(prefix+BERTPooler, s.Pooler, H, H)
	}
}

// BERTParams holds a BertModel's parameters on the host, for training:
// the embeddings, the post-LN layers and the optional pooler. A trainer
// embeds it and adds its heads.
type BERTParams[T Float] struct {
	Shape           BERTShape
	Word, Pos, Type []T
	EmbNorm         Norm[T]
	Layers          []EncoderLayer[T]
	Pooler          *Linear[T] // nil: no pooler
}

// NewBERTParams returns zeroed parameters of shape d, with a pooler if
// pooler.
func NewBERTParams[T Float](d BERTShape, pooler bool) *BERTParams[T] {
	return allocate[T](skeletonBERT[T](d, pooler))
}

// skeletonBERT returns parameters of shape d whose slots hold no values.
func skeletonBERT[T Float](d BERTShape, pooler bool) *BERTParams[T] {
	layers, pl := skeletonLayers[T](d.Layers, pooler)
	return &BERTParams[T]{Shape: d, Layers: layers, Pooler: pl}
}

// BERTLayout lists the names and shapes of BERT's walk under prefix, without
// values (Layout).
func BERTLayout(d BERTShape, pooler bool, prefix string) []Param[float32] {
	return layoutOf(skeletonBERT[float32](d, pooler), prefix)
}

// ZeroLike returns zeroed parameters of p's shapes (its gradient, Adam's
// moments).
func (p *BERTParams[T]) ZeroLike() *BERTParams[T] { return NewBERTParams[T](p.Shape, p.Pooler != nil) }

// Walk runs WalkBERT over p's blocks under prefix.
func (p *BERTParams[T]) Walk(w Walker[[]T, Linear[T], Norm[T]], prefix string) {
	WalkBERT(w, prefix, p.Shape, BERTSlots[[]T, Linear[T], Norm[T]]{
		Word: &p.Word, Pos: &p.Pos, Type: &p.Type, EmbNorm: &p.EmbNorm,
		Layer:  func(i int) LayerSlots[Linear[T], Norm[T]] { return p.Layers[i].Slots() },
		Pooler: p.Pooler,
	})
}
