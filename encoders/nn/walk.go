package nn

import "slices"

// Walker visits an architecture's parameter blocks in state_dict order,
// each with its checkpoint name, its shape and a pointer to the model's
// slot for it. The slot types are the model's: the inference encoders'
// backend tensors and layers (a walker that reads a checkpoint into them),
// the trainers' host slices and Linear/Norm (Allocator fills them with
// zeros, Lister lists them as Params). So an architecture's names, order,
// shapes and tying are written once, in its Walk… function, and every use
// — loading, saving, random initialisation, gradients, Adam moments — runs
// that walk.
type Walker[E, L, N any] interface {
	// Tensor visits a plain tensor (an embedding table, a bias of its
	// own).
	Tensor(name string, t *E, shape ...int)
	// Linear visits a torch.nn.Linear: name.weight [out, in], name.bias
	// [out].
	Linear(name string, l *L, out, in int)
	// LinearNoBias visits a torch.nn.Linear without bias: name.weight
	// [out, in].
	LinearNoBias(name string, l *L, out, in int)
	// PatchConv visits a Conv2d patch embedding (kernel = stride = patch)
	// held as a linear layer over flattened (channel, row, column) patches:
	// name.weight [out, channels, patch, patch], name.bias [out].
	PatchConv(name string, l *L, out, channels, patch int)
	// Norm visits a torch.nn.LayerNorm: name.weight, name.bias [width].
	Norm(name string, n *N, width int)
}

// LayerSlots points at the blocks of one transformer encoder layer.
type LayerSlots[L, N any] struct {
	Q, K, V, O, FFNIn, FFNOut *L
	LN1, LN2                  *N
}

// Slots returns pointers to l's blocks, for the walks.
func (l *EncoderLayer[T]) Slots() LayerSlots[Linear[T], Norm[T]] {
	return LayerSlots[Linear[T], Norm[T]]{Q: &l.Q, K: &l.K, V: &l.V, O: &l.O, FFNIn: &l.FC1, FFNOut: &l.FC2, LN1: &l.LN1, LN2: &l.LN2}
}

// WalkEncoderLayer visits an encoder layer of width hidden (feed-forward
// intermediate wide) under prefix+names, in the order of names.
func WalkEncoderLayer[E, L, N any](w Walker[E, L, N], prefix string, names EncoderLayerNames, s LayerSlots[L, N], hidden, intermediate int) {
	H, I := hidden, intermediate
	qkv := w.Linear
	if names.NoQKVBias {
		qkv = w.LinearNoBias
	}
	qkv(prefix+names.Query, s.Q, H, H)
	qkv(prefix+names.Key, s.K, H, H)
	qkv(prefix+names.Value, s.V, H, H)
	w.Linear(prefix+names.AttnOut, s.O, H, H)
	if !names.NormsLast {
		w.Norm(prefix+names.LN1, s.LN1, H)
	}
	w.Linear(prefix+names.FFNIn, s.FFNIn, I, H)
	w.Linear(prefix+names.FFNOut, s.FFNOut, H, I)
	if names.NormsLast {
		w.Norm(prefix+names.LN1, s.LN1, H)
	}
	w.Norm(prefix+names.LN2, s.LN2, H)
}

// Allocator is the Walker that gives every host slot zeroed storage of its
// shape: a trainer's new parameters, gradients and Adam moments.
type Allocator[T Float] struct{}

// Tensor allocates a zeroed tensor of shape.
func (Allocator[T]) Tensor(_ string, t *[]T, shape ...int) { *t = make([]T, Size(shape)) }

// Linear allocates a zeroed out×in Linear.
func (Allocator[T]) Linear(_ string, l *Linear[T], out, in int) { *l = NewLinear[T](out, in) }

// LinearNoBias allocates a zeroed out×in Linear without bias.
func (Allocator[T]) LinearNoBias(_ string, l *Linear[T], out, in int) {
	*l = Linear[T]{W: make([]T, out*in), Out: out, In: in}
}

// PatchConv allocates a zeroed out×(channels·patch²) Linear.
func (Allocator[T]) PatchConv(_ string, l *Linear[T], out, channels, patch int) {
	*l = NewLinear[T](out, channels*patch*patch)
}

// Norm allocates a zeroed LayerNorm of width.
func (Allocator[T]) Norm(_ string, n *Norm[T], width int) { *n = NewNorm[T](width) }

// Lister is the Walker that lists host slots through a TensorNamer (the
// walk a Collect runs), under the walk's names and shapes.
type Lister[T Float] struct{ Add TensorNamer[T] }

// Tensor lists the tensor.
func (ls Lister[T]) Tensor(name string, t *[]T, shape ...int) { ls.Add(name, *t, shape...) }

// Linear lists the weight and the bias.
func (ls Lister[T]) Linear(name string, l *Linear[T], out, in int) {
	ls.Add(name+".weight", l.W, out, in)
	ls.Add(name+".bias", l.B, out)
}

// LinearNoBias lists the weight.
func (ls Lister[T]) LinearNoBias(name string, l *Linear[T], out, in int) {
	ls.Add(name+".weight", l.W, out, in)
}

// PatchConv lists the weight in the conv's shape and the bias.
func (ls Lister[T]) PatchConv(name string, l *Linear[T], out, channels, patch int) {
	ls.Add(name+".weight", l.W, out, channels, patch, patch)
	ls.Add(name+".bias", l.B, out)
}

// Norm lists the weight and the bias.
func (ls Lister[T]) Norm(name string, n *Norm[T], width int) {
	ls.Add(name+".weight", n.G, width)
	ls.Add(name+".bias", n.B, width)
}

// Layout runs a walk over slots that hold no values and returns the names
// and shapes it visits, in order, with nil Data: a checkpoint's layout
// without its storage (random full-size checkpoints written tensor by
// tensor).
func Layout[T Float](walk func(w Walker[[]T, Linear[T], Norm[T]])) []Param[T] {
	var ps []Param[T]
	walk(Lister[T]{Add: func(name string, _ []T, shape ...int) {
		ps = append(ps, Param[T]{Name: name, Shape: slices.Clone(shape)})
	}})
	return ps
}

// hostParams is an architecture's host parameters (BERTParams, …).
type hostParams[T Float] interface {
	Walk(w Walker[[]T, Linear[T], Norm[T]], prefix string)
}

// allocate gives p's slots zeroed storage and returns p.
func allocate[T Float, P hostParams[T]](p P) P {
	p.Walk(Allocator[T]{}, "")
	return p
}

// layoutOf is the Layout of p's walk under prefix.
func layoutOf[P hostParams[float32]](p P, prefix string) []Param[float32] {
	return Layout(func(w Walker[[]float32, Linear[float32], Norm[float32]]) { p.Walk(w, prefix) })
}

// skeletonLayers returns n empty encoder layers and, if pooler, an empty
// pooler: the slots of a host architecture before its walk fills them.
func skeletonLayers[T Float](n int, pooler bool) ([]EncoderLayer[T], *Linear[T]) {
	var pl *Linear[T]
	if pooler {
		pl = new(Linear[T])
	}
	return make([]EncoderLayer[T], n), pl
}
