//go:build openblas

package encoders

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
import "C"

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
	"gorgonia.org/tensor"
)

// With the openblas build tag, gorgonia.org/tensor's BLAS — and so every
// matrix product of the encoders — is OpenBLAS through gonum's cgo netlib
// bindings (SPEC §8.5). Build with Debian's libopenblas-dev:
//
//	CGO_LDFLAGS=-lopenblas go test -tags openblas ./encoders/
//
// OpenBLAS runs single-threaded and large products are split by rows across
// GOMAXPROCS goroutines instead: OpenBLAS's own worker threads spin between
// calls and then compete with the goroutines that compute attention heads
// and activations, which made the build slower than the pure-Go one.
//
// Debian's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its Haswell kernels on the
// AVX-512 Xeons this project is measured on (85–95 GFLOP/s for a
// 1024×768·768×3072 product); exporting OPENBLAS_CORETYPE=SkylakeX before
// the program starts selects the AVX-512 kernels.
//
// tensor.Use is gorgonia's backend switch; a program may also call it
// itself, for example to select another BLAS.
func init() {
	C.openblas_set_num_threads(1)
	tensor.Use(rowParallelBLAS{})
}

// BLASName names the BLAS the encoders use in this build.
const BLASName = "openblas"

// rowParallelBLAS is OpenBLAS with Sgemm split across goroutines by rows of
// C when A is not transposed and the product is large.
type rowParallelBLAS struct{ netlib.Implementation }

// Sgemm implements blas.Float32Level3.
func (o rowParallelBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	workers := runtime.GOMAXPROCS(0)
	if tA != blas.NoTrans || workers < 2 || m < 2*workers || float64(m)*float64(n)*float64(k) < 1<<23 {
		o.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := m*w/workers, m*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.Implementation.Sgemm(tA, tB, hi-lo, n, k, alpha, a[lo*lda:], lda, b, ldb, beta, c[lo*ldc:], ldc)
		}()
	}
	wg.Wait()
}
