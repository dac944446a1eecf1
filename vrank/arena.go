package vrank

// arena hands out the activation and gradient buffers of one training step
// and keeps them for the next: a step asks for the same buffers in the same
// order, so after the first step nothing is allocated, page-faulted or
// zeroed again. Buffers come back with stale contents; callers overwrite
// them or clear them. A nil arena allocates fresh zeroed slices.
type arena[T float] struct {
	bufs [][]T
	next int
}

// reset makes every buffer available again (the previous step's
// activations are dead).
func (a *arena[T]) reset() {
	if a != nil {
		a.next = 0
	}
}

// get returns a buffer of n elements, with unspecified contents.
func (a *arena[T]) get(n int) []T {
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

// zeros returns a cleared buffer of n elements.
func (a *arena[T]) zeros(n int) []T {
	b := a.get(n)
	clear(b)
	return b
}
