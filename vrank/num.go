package vrank

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/tensor"

	// The encoders package sets gorgonia.org/tensor's BLAS to the project's
	// SGEMM (or OpenBLAS with the openblas tag); every matrix product of the
	// training passes goes through that same BLAS.
	_ "github.com/storyeval/storyeval/encoders"
)

// float is the element type of the training passes: float32 for training,
// float64 for the finite-difference checks of the backward passes.
type float interface{ ~float32 | ~float64 }

// gemm computes c = alpha·op(a)·op(b) + beta·c for row-major matrices with
// the BLAS gorgonia.org/tensor uses.
func gemm[T float](transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	switch cc := any(c).(type) {
	case []float32:
		tensor.WhichBLAS().Sgemm(ta, tb, m, n, k, float32(alpha), any(a).([]float32), lda, any(b).([]float32), ldb, float32(beta), cc, ldc)
	case []float64:
		tensor.WhichBLAS().Dgemm(ta, tb, m, n, k, float64(alpha), any(a).([]float64), lda, any(b).([]float64), ldb, float64(beta), cc, ldc)
	}
}

// erf, exp, tanh and sqrt in the element type, computed in float64 and
// rounded once.
func erfT[T float](x T) T  { return T(math.Erf(float64(x))) }
func expT[T float](x T) T  { return T(math.Exp(float64(x))) }
func tanhT[T float](x T) T { return T(math.Tanh(float64(x))) }
func sqrtT[T float](x T) T { return T(math.Sqrt(float64(x))) }

// convert copies src into a new slice of another element type.
func convert[D, S float](src []S) []D {
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
func erfF(x float64) float64  { return math.Erf(x) }
func expF(x float64) float64  { return math.Exp(x) }
