// Package trainloop holds the pieces of an epoch loop that the RoViST and
// Vrank trainers share: the seeded per-epoch shuffle, walking a shuffled
// order in batches, and recording an epoch (with its checkpoint).
package trainloop

import "math/rand"

// Order returns epoch's shuffled order of n examples, seeded with
// seed + epoch·7919 so that a resumed run visits the examples in the same
// order as an uninterrupted one.
func Order(seed int64, epoch, n int) []int {
	return rand.New(rand.NewSource(seed + int64(epoch)*7919)).Perm(n)
}

// Batches calls fn with consecutive batches of order, each of size
// indices but the last (which may be smaller, as torch's DataLoader
// without drop_last), and the number of examples done after the batch. It
// stops at fn's first error and returns it.
func Batches(order []int, size int, fn func(idx []int, done int) error) error {
	for lo := 0; lo < len(order); lo += size {
		idx := order[lo:min(lo+size, len(order))]
		if err := fn(idx, lo+len(idx)); err != nil {
			return err
		}
	}
	return nil
}

// Gather returns src's elements at idx, in idx's order.
func Gather[T any](src []T, idx []int) []T {
	out := make([]T, len(idx))
	for j, i := range idx {
		out[j] = src[i]
	}
	return out
}

// Record appends an epoch's result to history; when root is set it then
// writes a checkpoint there (write sees res in history, as the trainer
// state it saves holds it) and stores the folder in the recorded result
// with setDir.
func Record[E any](history *[]E, res E, root string, write func(root string) (string, error), setDir func(*E, string)) error {
	*history = append(*history, res)
	if root == "" {
		return nil
	}
	dir, err := write(root)
	if err != nil {
		return err
	}
	setDir(&(*history)[len(*history)-1], dir)
	return nil
}

// Default sets *v to def when it holds T's zero value: an options struct's
// zero field means the reference's default.
func Default[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// Improved records an epoch's validation loss for early stopping: when it
// is lower than *best it becomes the best and *since restarts at 0,
// otherwise (NaN included) *since counts one more epoch without
// improvement. It reports whether the loss improved.
func Improved(best *float64, since *int, loss float64) bool {
	if loss < *best {
		*best, *since = loss, 0
		return true
	}
	*since++
	return false
}
