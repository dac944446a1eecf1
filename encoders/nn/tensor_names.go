package nn

// TensorNamer lists a model's parameter tensors under their checkpoint
// (state_dict) names: it is called once per tensor with the name, the
// slice (aliasing the parameter) and the shape as stored. Its methods list
// the tensors of the shared blocks under torch's names, so that a model's
// list reads like its state_dict.
type TensorNamer[T Float] func(name string, data []T, shape ...int)

// Linear lists an nn.Linear's "name.weight" [Out, In] and "name.bias"
// [Out].
func (add TensorNamer[T]) Linear(name string, l *Linear[T]) {
	add(name+".weight", l.W, l.Out, l.In)
	add(name+".bias", l.B, l.Out)
}

// Norm lists an nn.LayerNorm's "name.weight" and "name.bias".
func (add TensorNamer[T]) Norm(name string, n *Norm[T]) {
	add(name+".weight", n.G, len(n.G))
	add(name+".bias", n.B, len(n.B))
}

// EncoderLayerNames are the state_dict names of an encoder layer's blocks
// below the layer's prefix (e.g. "attention.self.query" in BERT).
type EncoderLayerNames struct {
	Query, Key, Value, AttnOut, LN1, FFNIn, FFNOut, LN2 string
	// NormsLast lists LN1 and LN2 after the linear layers, the order of
	// HF ViTLayer's state_dict; otherwise they follow the attention
	// output and the feed-forward output, as in BertLayer.
	NormsLast bool
	// NoQKVBias: Query, Key and Value have no bias (ViT with qkv_bias
	// false).
	NoQKVBias bool
}

// EncoderLayer lists layer l's tensors under prefix+names, in
// WalkEncoderLayer's order.
func (add TensorNamer[T]) EncoderLayer(prefix string, l *EncoderLayer[T], names EncoderLayerNames) {
	WalkEncoderLayer(Lister[T]{add}, prefix, names, l.Slots(), l.Q.Out, l.FC1.Out)
}
