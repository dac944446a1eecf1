package sgemm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Implementation is gonum's pure-Go BLAS with a faster Sgemm. It satisfies
// gonum's blas.Float32, blas.Float64, blas.Complex64 and blas.Complex128
// interfaces, and so gorgonia.org/tensor's BLAS interface. The zero value is
// ready to use and safe for concurrent use.
type Implementation struct {
	gonum.Implementation
}

// Panic messages, identical to gonum's so that callers see the same errors
// whichever implementation is in use.
const (
	mLT0         = "blas: m < 0"
	nLT0         = "blas: n < 0"
	kLT0         = "blas: k < 0"
	badTranspose = "blas: illegal transpose"
	badLdA       = "blas: bad leading dimension of A"
	badLdB       = "blas: bad leading dimension of B"
	badLdC       = "blas: bad leading dimension of C"
	shortA       = "blas: insufficient length of a"
	shortB       = "blas: insufficient length of b"
	shortC       = "blas: insufficient length of c"
)

// Sgemm performs one of the matrix-matrix operations
//
//	C = alpha * A * B + beta * C
//	C = alpha * Aᵀ * B + beta * C
//	C = alpha * A * Bᵀ + beta * C
//	C = alpha * Aᵀ * Bᵀ + beta * C
//
// on row-major matrices, where A is an m×k or k×m matrix, B is a k×n or n×k
// matrix, C is an m×n matrix, and alpha and beta are scalars; tA and tB say
// whether A or B are transposed (blas.ConjTrans is the same as blas.Trans).
//
// Arguments are validated exactly as gonum's Sgemm does, and invalid ones
// panic with gonum's messages, because the BLAS interface has no error
// result. When beta is 0, C is not read, so NaNs in C are overwritten. Like
// the reference BLAS, and unlike gonum, when alpha is 0 A and B are not read
// (gonum multiplies them by 0, which turns infinities in A or B into NaN).
func (Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm(defaultKernel, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemm is Sgemm with the micro-kernel as an argument, so that tests can
// check the portable kernel on machines where the assembly one is chosen.
func sgemm(kern microKernel, tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	switch tA {
	default:
		panic(badTranspose)
	case blas.NoTrans, blas.Trans, blas.ConjTrans:
	}
	switch tB {
	default:
		panic(badTranspose)
	case blas.NoTrans, blas.Trans, blas.ConjTrans:
	}
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	aTrans := tA != blas.NoTrans
	bTrans := tB != blas.NoTrans
	if aTrans {
		if lda < max(1, m) {
			panic(badLdA)
		}
	} else if lda < max(1, k) {
		panic(badLdA)
	}
	if bTrans {
		if ldb < max(1, k) {
			panic(badLdB)
		}
	} else if ldb < max(1, n) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	// Operand lengths, checked as gonum checks them (also when k = 0).
	if aTrans {
		if len(a) < (k-1)*lda+m {
			panic(shortA)
		}
	} else if len(a) < (m-1)*lda+k {
		panic(shortA)
	}
	if bTrans {
		if len(b) < (n-1)*ldb+k {
			panic(shortB)
		}
	} else if len(b) < (k-1)*ldb+n {
		panic(shortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
	if (alpha == 0 || k == 0) && beta == 1 {
		return
	}
	p := problem{
		kern:   kern,
		aTrans: aTrans, bTrans: bTrans,
		m: m, n: n, k: k,
		alpha: alpha, beta: beta,
		a: a, lda: lda,
		b: b, ldb: ldb,
		c: c, ldc: ldc,
	}
	p.run()
}
