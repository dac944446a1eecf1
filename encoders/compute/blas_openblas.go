//go:build openblas

package compute

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
import "C"

import (
	"sync"

	"github.com/storyeval/storyeval/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
)

// DefaultBLAS returns the BLAS of this build (openblas tag): OpenBLAS
// through gonum's cgo netlib bindings. Build with Debian's libopenblas-dev:
//
//	CGO_LDFLAGS=-lopenblas go test -tags openblas ./encoders/...
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
func DefaultBLAS() BLAS {
	openblasThreads.Do(func() { C.openblas_set_num_threads(1) })
	return rowParallelBLAS{}
}

// openblasThreads makes OpenBLAS single-threaded once, when its BLAS is
// first asked for rather than at import.
var openblasThreads sync.Once

// BLASName names the BLAS DefaultBLAS returns in this build.
const BLASName = "openblas"

// rowParallelBLAS is OpenBLAS with Sgemm split across goroutines by rows of
// C when A is not transposed and the product is large.
type rowParallelBLAS struct{ netlib.Implementation }

// minRowParallelWork is the product size m·n·k below which a split across
// goroutines costs more than it saves.
const minRowParallelWork = 1 << 23

// Sgemm implements blas.Float32Level3.
func (o rowParallelBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if tA != blas.NoTrans || float64(m)*float64(n)*float64(k) < minRowParallelWork {
		o.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// At least two rows per worker, as before the move to internal/parallel.
	parallel.Chunks(m, 2, func(_, lo, hi int) {
		o.Implementation.Sgemm(tA, tB, hi-lo, n, k, alpha, a[lo*lda:], lda, b, ldb, beta, c[lo*ldc:], ldc)
	})
}
