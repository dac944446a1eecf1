package nn

// Arena hands out the activation and gradient buffers of one training step
// and keeps them for the next: a step asks for the same buffers in the same
// order, so after the first step nothing is allocated, page-faulted or
// zeroed again. Buffers come back with stale contents; callers overwrite
// them or clear them. A nil Arena allocates fresh zeroed slices.
type Arena[T Float] struct {
	bufs [][]T
	next int
}

// Reset makes every buffer available again (the previous step's
// activations are dead).
func (a *Arena[T]) Reset() {
	if a != nil {
		a.next = 0
	}
}

// Get returns a buffer of n elements, with unspecified contents.
func (a *Arena[T]) Get(n int) []T {
	if a == nil {
		return make([]T, n)
	}
	if a.next == len(a.bufs) {
		a.bufs = append(a.bufs, nil)
	}
	b := a.bufs[a.next]
	if cap(b) < n {
		b = make([]T, n)
		a.bufs[a.next] = b
	}
	a.next++
	return b[:n]
}

// Zeros returns a cleared buffer of n elements.
func (a *Arena[T]) Zeros(n int) []T {
	b := a.Get(n)
	clear(b)
	return b
}
