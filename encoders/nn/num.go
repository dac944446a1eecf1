package nn

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Float is the element type of the training passes: float32 for training,
// float64 for the finite-difference checks of the backward passes.
type Float interface{ ~float32 | ~float64 }

// Gemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices on
// the host with the CPU backend's BLAS (the project's SGEMM, or OpenBLAS
// with the openblas tag), whatever other code of the process uses.
func Gemm[T Float](transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	cpu := compute.CPU()
	switch cc := any(c).(type) {
	case []float32:
		cpu.Gemm(transA, transB, m, n, k, float32(alpha), compute.Host(any(a).([]float32)), lda, compute.Host(any(b).([]float32)), ldb, float32(beta), compute.Host(cc), ldc)
	case []float64:
		cpu.Gemm64(transA, transB, m, n, k, float64(alpha), any(a).([]float64), lda, any(b).([]float64), ldb, float64(beta), cc, ldc)
	}
}

// Erf is math.Erf in the element type, computed in float64 and rounded
// once.
func Erf[T Float](x T) T { return T(math.Erf(float64(x))) }

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

const (
	sqrtHalf   = 0.70710678118654752440084436210484903928483593768847
	invSqrt2Pi = 0.39894228040143267793994605993438186847585863116493
)

func sqrtF(x float64) float64 { return math.Sqrt(x) }
func expF(x float64) float64  { return math.Exp(x) }

// SoftmaxExp is e^x for the softmax's x ≤ 0: compute.ExpNonPositive in float32,
// whose rounding hides its 1e-8 error, and math.Exp in float64, where the
// finite-difference checks need the exact function.
func SoftmaxExp[T Float](x T) T {
	if _, f64 := any(x).(float64); f64 {
		return T(math.Exp(float64(x)))
	}
	return T(compute.ExpNonPositive(float64(x)))
}
