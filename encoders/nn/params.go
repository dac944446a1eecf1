package nn

// Linear is a torch nn.Linear: W is [Out, In] row-major and y = x·Wᵀ + B.
// The same type holds the gradients of a layer (see LinearBackward).
type Linear[T Float] struct {
	W, B    []T
	Out, In int
}

// NewLinear returns a zeroed Linear of the given shape.
func NewLinear[T Float](out, in int) Linear[T] {
	return Linear[T]{W: make([]T, out*in), B: make([]T, out), Out: out, In: in}
}

// ZeroLike returns a zeroed Linear of l's shape (its gradient).
func (l *Linear[T]) ZeroLike() Linear[T] { return NewLinear[T](l.Out, l.In) }

// Norm is a torch nn.LayerNorm's weight G (gamma) and bias B (beta).
type Norm[T Float] struct{ G, B []T }

// NewNorm returns a zeroed Norm of width h.
func NewNorm[T Float](h int) Norm[T] { return Norm[T]{G: make([]T, h), B: make([]T, h)} }

// ZeroLike returns a zeroed Norm of n's width (its gradient).
func (n *Norm[T]) ZeroLike() Norm[T] { return NewNorm[T](len(n.G)) }
