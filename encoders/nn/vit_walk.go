package nn

import "fmt"

// ViTShape is the part of a ViTConfig that fixes the parameters' shapes.
type ViTShape struct {
	Hidden, Intermediate, Layers int
	Channels, Patch, ImageSize   int // the Conv2d patch embedding's input
	// NoQKVBias drops the query, key and value biases (qkv_bias false).
	NoQKVBias bool
}

// Patches returns the number of patches of an image.
func (d ViTShape) Patches() int { n := d.ImageSize / d.Patch; return n * n }

// ViTSlots points at a ViTModel's blocks. PatchEmbed is the Conv2d patch
// embedding as a linear layer over flattened (channel, row, column)
// patches; Layer returns layer i's slots; a nil Pooler is a model without
// pooler.
type ViTSlots[E, L, N any] struct {
	CLS, Pos   *E
	PatchEmbed *L
	Layer      func(i int) LayerSlots[L, N]
	Norm       *N
	Pooler     *L
}

// ViTModel's checkpoint names (transformers' ViTModel state_dict) that
// callers probe for: the embeddings (where a checkpoint's prefix is found,
// the configuration's shape checks) and the optional pooler.
const (
	ViTClassToken         = "embeddings.cls_token"
	ViTPositionEmbeddings = "embeddings.position_embeddings"
	ViTPatchEmbedding     = "embeddings.patch_embeddings.projection"
	ViTPooler             = "pooler.dense"
)

// ViTLayerNames are the state_dict names of a ViTLayer's blocks, whose
// LayerNorms follow its linear layers in the state_dict.
var ViTLayerNames = EncoderLayerNames{
	Query: "attention.attention.query", Key: "attention.attention.key", Value: "attention.attention.value",
	AttnOut: "attention.output.dense", FFNIn: "intermediate.dense", FFNOut: "output.dense",
	LN1: "layernorm_before", LN2: "layernorm_after", NormsLast: true,
}

// ViTLayerPrefix is the state_dict prefix of layer i's blocks.
func ViTLayerPrefix(i int) string { return fmt.Sprintf("encoder.layer.%d.", i) }

// WalkViT visits a ViTModel's parameters under prefix in state_dict
// order: the class token, the position embeddings, the patch projection,
// the pre-LN layers, the final layernorm, the pooler. It is ViT's one
// parameter walk: encoders.NewViTFrom reads an inference model through it
// and the RoViST-VG trainer lists, allocates and saves its ViT through it.
func WalkViT[E, L, N any](w Walker[E, L, N], prefix string, d ViTShape, s ViTSlots[E, L, N]) {
	H := d.Hidden
	w.Tensor(prefix+ViTClassToken, s.CLS, 1, 1, H)
	w.Tensor(prefix+ViTPositionEmbeddings, s.Pos, 1, d.Patches()+1, H)
	w.PatchConv(prefix+ViTPatchEmbedding, s.PatchEmbed, H, d.Channels, d.Patch)
	names := ViTLayerNames
	names.NoQKVBias = d.NoQKVBias
	for i := 0; i < d.Layers; i++ {
		WalkEncoderLayer(w, prefix+ViTLayerPrefix(i), names, s.Layer(i), H, d.Intermediate)
	}
	w.Norm(prefix+"layernorm", s.Norm, H)
	if s.Pooler != nil {
		w.Linear(prefix+ViTPooler, s.Pooler, H, H)
	}
}

// ViTParams holds a ViTModel's parameters on the host, for training. A
// trainer embeds it and adds its heads.
type ViTParams[T Float] struct {
	Shape      ViTShape
	CLS, Pos   []T
	PatchEmbed Linear[T] // weight [H, C·P·P], the conv weight [H, C, P, P] as stored
	Layers     []EncoderLayer[T]
	Norm       Norm[T]
	Pooler     *Linear[T] // nil: no pooler
}

// NewViTParams returns zeroed parameters of shape d, with a pooler if
// pooler.
func NewViTParams[T Float](d ViTShape, pooler bool) *ViTParams[T] {
	return allocate[T](skeletonViT[T](d, pooler))
}

// skeletonViT returns parameters of shape d whose slots hold no values.
func skeletonViT[T Float](d ViTShape, pooler bool) *ViTParams[T] {
	layers, pl := skeletonLayers[T](d.Layers, pooler)
	return &ViTParams[T]{Shape: d, Layers: layers, Pooler: pl}
}

// ViTLayout lists the names and shapes of ViT's walk under prefix, without
// values (Layout).
func ViTLayout(d ViTShape, pooler bool, prefix string) []Param[float32] {
	return layoutOf(skeletonViT[float32](d, pooler), prefix)
}

// ZeroLike returns zeroed parameters of p's shapes.
func (p *ViTParams[T]) ZeroLike() *ViTParams[T] { return NewViTParams[T](p.Shape, p.Pooler != nil) }

// Walk runs WalkViT over p's blocks under prefix.
func (p *ViTParams[T]) Walk(w Walker[[]T, Linear[T], Norm[T]], prefix string) {
	WalkViT(w, prefix, p.Shape, ViTSlots[[]T, Linear[T], Norm[T]]{
		CLS: &p.CLS, Pos: &p.Pos, PatchEmbed: &p.PatchEmbed, Norm: &p.Norm, Pooler: p.Pooler,
		Layer: func(i int) LayerSlots[Linear[T], Norm[T]] { return p.Layers[i].Slots() },
	})
}
