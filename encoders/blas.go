package encoders

import (
	"gonum.org/v1/gonum/blas"
	"gorgonia.org/tensor"
)

// gemm computes c = alpha·op(a)·op(b) + beta·c for row-major float32
// matrices with the BLAS that gorgonia.org/tensor is set to use (gonum's
// pure-Go one by default, OpenBLAS with the openblas build tag), so that
// every matrix product of the encoders follows tensor.Use.
func gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	tensor.WhichBLAS().Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
