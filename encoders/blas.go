package encoders

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/tensor"
)

// The encoders multiply matrices with the BLAS that gorgonia.org/tensor is
// set to use (tensor.Use is a process-wide switch). Importing this package
// leaves that switch alone; a program picks the BLAS with UseBLAS or
// UseDefaultBLAS, and when it has not, the first model built or the first
// matrix product installs DefaultBLAS — unless the program already chose
// one itself with tensor.Use.
var blasChoice struct {
	once   sync.Once
	chosen atomic.Bool
}

// UseBLAS makes impl the BLAS of gorgonia.org/tensor, and so of every
// matrix product of the encoders, for the whole process. Call it before
// building or running models: the switch is not synchronised with products
// already running. It is a thin wrapper around tensor.Use that also stops
// the encoders from installing DefaultBLAS later.
func UseBLAS(impl tensor.BLAS) {
	blasChoice.chosen.Store(true)
	tensor.Use(impl)
}

// UseDefaultBLAS installs DefaultBLAS, the BLAS this build of the encoders
// was measured with. Calling it is optional: building the first model does
// the same when the program chose no BLAS.
func UseDefaultBLAS() { UseBLAS(DefaultBLAS()) }

// ensureBLAS installs DefaultBLAS once, if neither UseBLAS nor tensor.Use
// chose a BLAS before (gorgonia's own default is gonum's pure-Go BLAS).
func ensureBLAS() {
	blasChoice.once.Do(func() {
		if blasChoice.chosen.Load() {
			return
		}
		if _, untouched := tensor.WhichBLAS().(gonum.Implementation); untouched {
			tensor.Use(DefaultBLAS())
		}
	})
}

// gemm computes c = alpha·op(a)·op(b) + beta·c for row-major float32
// matrices with the BLAS that gorgonia.org/tensor is set to use, so that
// every matrix product of the encoders follows UseBLAS / tensor.Use.
func gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ensureBLAS()
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	tensor.WhichBLAS().Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
