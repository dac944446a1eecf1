package nn

import "fmt"

// ALBERTShape is the part of an AlbertConfig that fixes the parameters'
// shapes: factorised embeddings of width Embedding mapped to Hidden, and
// Groups layer groups of InnerLayers layers each (shared by all
// num_hidden_layers applications).
type ALBERTShape struct {
	Vocab, Positions, Types int // embedding tables' rows
	Embedding, Hidden       int
	Intermediate            int
	Groups, InnerLayers     int
}

// ALBERTSlots points at an AlbertModel's blocks. Layer returns the slots
// of layer l of group g; a nil Pooler is a model without pooler.
type ALBERTSlots[E, L, N any] struct {
	Word, Pos, Type *E
	EmbNorm         *N
	MapIn           *L
	Layer           func(g, l int) LayerSlots[L, N]
	Pooler          *L
}

// AlbertModel's checkpoint names (transformers' AlbertModel state_dict)
// that callers probe for: the embedding tables (where a checkpoint's
// prefix is found, the configuration's shape checks) and the optional
// pooler.
const (
	ALBERTWordEmbeddings      = BERTWordEmbeddings
	ALBERTPositionEmbeddings  = BERTPositionEmbeddings
	ALBERTTokenTypeEmbeddings = BERTTokenTypeEmbeddings
	ALBERTMapIn               = "encoder.embedding_hidden_mapping_in"
	ALBERTPooler              = "pooler"
)

// ALBERTLayerNames are the state_dict names of an AlbertLayer's blocks.
var ALBERTLayerNames = EncoderLayerNames{
	Query: "attention.query", Key: "attention.key", Value: "attention.value",
	AttnOut: "attention.dense", LN1: "attention.LayerNorm",
	FFNIn: "ffn", FFNOut: "ffn_output", LN2: "full_layer_layer_norm",
}

// ALBERTLayerPrefix is the state_dict prefix of layer l of group g.
func ALBERTLayerPrefix(g, l int) string {
	return fmt.Sprintf("encoder.albert_layer_groups.%d.albert_layers.%d.", g, l)
}

// WalkALBERT visits an AlbertModel's parameters under prefix in
// state_dict order: embeddings and their LayerNorm, the mapping in, the
// layer groups' post-LN layers, the pooler. It is ALBERT's one parameter
// walk: encoders.NewALBERTFrom reads an inference model through it and
// the RoViST-C trainer lists, allocates and saves its encoder through it.
func WalkALBERT[E, L, N any](w Walker[E, L, N], prefix string, d ALBERTShape, s ALBERTSlots[E, L, N]) {
	E0, H := d.Embedding, d.Hidden
	w.Tensor(prefix+ALBERTWordEmbeddings, s.Word, d.Vocab, E0)
	w.Tensor(prefix+ALBERTPositionEmbeddings, s.Pos, d.Positions, E0)
	w.Tensor(prefix+ALBERTTokenTypeEmbeddings, s.Type, d.Types, E0)
	w.Norm(prefix+"embeddings.LayerNorm", s.EmbNorm, E0)
	w.Linear(prefix+ALBERTMapIn, s.MapIn, H, E0)
	for g := 0; g < d.Groups; g++ {
		for l := 0; l < d.InnerLayers; l++ {
			WalkEncoderLayer(w, prefix+ALBERTLayerPrefix(g, l), ALBERTLayerNames, s.Layer(g, l), H, d.Intermediate)
		}
	}
	if s.Pooler != nil {
		w.Linear(prefix+ALBERTPooler, s.Pooler, H, H)
	}
}

// ALBERTParams holds an AlbertModel's parameters on the host, for
// training: the embeddings, the mapping in, the layer groups' layers
// (group-major: layer l of group g is Layers[g·InnerLayers+l]) and the
// optional pooler. A trainer embeds it and adds its heads.
type ALBERTParams[T Float] struct {
	Shape           ALBERTShape
	Word, Pos, Type []T
	EmbNorm         Norm[T]
	MapIn           Linear[T]
	Layers          []EncoderLayer[T]
	Pooler          *Linear[T] // nil: no pooler
}

// NewALBERTParams returns zeroed parameters of shape d, with a pooler if
// pooler.
func NewALBERTParams[T Float](d ALBERTShape, pooler bool) *ALBERTParams[T] {
	return allocate[T](skeletonALBERT[T](d, pooler))
}

// skeletonALBERT returns parameters of shape d whose slots hold no values.
func skeletonALBERT[T Float](d ALBERTShape, pooler bool) *ALBERTParams[T] {
	layers, pl := skeletonLayers[T](d.Groups*d.InnerLayers, pooler)
	return &ALBERTParams[T]{Shape: d, Layers: layers, Pooler: pl}
}

// ALBERTLayout lists the names and shapes of ALBERT's walk under prefix, without
// values (Layout).
func ALBERTLayout(d ALBERTShape, pooler bool, prefix string) []Param[float32] {
	return layoutOf(skeletonALBERT[float32](d, pooler), prefix)
}

// ZeroLike returns zeroed parameters of p's shapes.
func (p *ALBERTParams[T]) ZeroLike() *ALBERTParams[T] {
	return NewALBERTParams[T](p.Shape, p.Pooler != nil)
}

// Walk runs WalkALBERT over p's blocks under prefix.
func (p *ALBERTParams[T]) Walk(w Walker[[]T, Linear[T], Norm[T]], prefix string) {
	WalkALBERT(w, prefix, p.Shape, ALBERTSlots[[]T, Linear[T], Norm[T]]{
		Word: &p.Word, Pos: &p.Pos, Type: &p.Type, EmbNorm: &p.EmbNorm, MapIn: &p.MapIn,
		Layer: func(g, l int) LayerSlots[Linear[T], Norm[T]] {
			return p.Layers[g*p.Shape.InnerLayers+l].Slots()
		},
		Pooler: p.Pooler,
	})
}
