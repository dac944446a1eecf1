package nn

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Float is the element type of the training passes: float32 for training,
// float64 for the finite-difference checks of the backward passes.
type Float = compute.Float

// Gemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices on
// the host with the CPU backend's BLAS (the project's SGEMM, or OpenBLAS
// with the openblas tag), whatever other code of the process uses.
func Gemm[T Float](transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	compute.HostGemm(compute.DefaultBLAS(), transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Tanh is math.Tanh in the element type, computed in float64 and rounded
// once.
func Tanh[T Float](x T) T { return T(math.Tanh(float64(x))) }

// Convert copies src into a new slice of another element type.
func Convert[D, S Float](src []S) []D {
	out := make([]D, len(src))
	for i, v := range src {
		out[i] = D(v)
	}
	return out
}
