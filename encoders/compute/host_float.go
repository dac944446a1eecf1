package compute

import "math"

// Float is the element type of the CPU backend's host kernels: float32 for
// the backend itself, float64 for the finite-difference checks of the
// backward operations, which call the same kernels (encoders/nn's layers
// too).
type Float interface{ ~float32 | ~float64 }

// HostGemm computes c = alpha·op(a)·op(b) + beta·c for row-major host
// matrices with bl's Sgemm or Dgemm.
func HostGemm[T Float](bl BLAS, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch cc := any(c).(type) {
	case []float32:
		bl.Sgemm(trans(transA), trans(transB), m, n, k, float32(alpha), any(a).([]float32), lda, any(b).([]float32), ldb, float32(beta), cc, ldc)
	case []float64:
		bl.Dgemm(trans(transA), trans(transB), m, n, k, float64(alpha), any(a).([]float64), lda, any(b).([]float64), ldb, float64(beta), cc, ldc)
	}
}

// is64 reports whether T is float64: the kernels then use the exact
// functions (math.Exp, math.Erf) that the finite-difference checks need,
// where float32 uses the encoders' faster ones, whose error its rounding
// hides.
func is64[T Float]() bool {
	var z T
	_, ok := any(z).(float64)
	return ok
}

// expSoftmax is e^x for a softmax's x ≤ 0 (see is64).
func expSoftmax[T Float](x float64) float64 {
	if is64[T]() {
		return math.Exp(x)
	}
	return ExpNonPositive(x)
}
