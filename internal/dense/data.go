// Package dense reads the values of gorgonia.org/tensor's Dense tensors
// without the use-after-free that calling (*tensor.Dense).Data directly
// invites.
//
// gorgonia.org/tensor v0.9.24's Data builds the returned slice from a
// reflect.SliceHeader whose Data field is a uintptr (dense.go: Data), and
// allocates (reflect.Value.Interface) while that uintptr is the only
// reference it holds to the backing array. When the caller's *Dense is not
// used after the call — `x := t.Data().([]float32)` as the last use of t,
// the usual shape — nothing the garbage collector can see keeps the array
// alive: a collection that completes during that allocation frees it, the
// returned slice points into a freed span, and a later write barrier or
// stack scan dies with "fatal error: found bad pointer in Go heap" (issue
// 21: rovist.LoadCoherenceModel in CI, the ALBERT's 30,000×8 word
// embeddings read through checkpoint.State.Float32). Data below keeps the
// tensor reachable until the slice exists.
package dense

import (
	"runtime"

	"gorgonia.org/tensor"
)

// Data returns t.Data() — the backing slice ([]float32, []int64, …; the
// single value of a scalar) — with t kept reachable for the whole call, so
// the backing array cannot be collected while gorgonia holds it only as a
// uintptr. Every read of a Dense's values in this module goes through it
// (TestNoDirectDenseData at the module root checks).
func Data(t *tensor.Dense) any {
	d := t.Data()
	// Sound because t's array field holds the backing array as a []byte:
	// while t is live, so is the array the uintptr points at.
	runtime.KeepAlive(t)
	return d
}
