package compute

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
)

// BLAS is the host matrix product the CPU backend calls, with gonum's
// signatures (gonum.org/v1/gonum/blas Float32Level3 and Float64Level3
// subsets): DefaultBLAS, gonum's own implementation, OpenBLAS through
// gonum's netlib bindings.
type BLAS interface {
	Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
}

// Host is the CPU backend's Tensor: a host slice.
type Host []float32

// Len implements Tensor.
func (h Host) Len() int { return len(h) }

// CPUBackend runs every operation on the host with a BLAS for the matrix
// products. Its zero value uses DefaultBLAS. It is safe for concurrent
// use.
type CPUBackend struct {
	// BLAS multiplies the matrices; nil means DefaultBLAS().
	BLAS BLAS
}

// CPU returns the default backend: the host, with DefaultBLAS (the
// project's SGEMM, or OpenBLAS in a build with the openblas tag).
func CPU() CPUBackend { return CPUBackend{} }

func (c CPUBackend) blas() BLAS {
	if c.BLAS == nil {
		return DefaultBLAS()
	}
	return c.BLAS
}

// Name implements Backend: "cpu/" and the BLAS's name.
func (c CPUBackend) Name() string {
	if c.BLAS == nil {
		return "cpu/" + BLASName
	}
	return fmt.Sprintf("cpu/%T", c.BLAS)
}

// host returns the slice behind a tensor of this backend.
func host(t Tensor) []float32 {
	if t == nil {
		return nil
	}
	h, ok := t.(Host)
	if !ok {
		panic(fmt.Sprintf("compute: the CPU backend was given a %T tensor of another backend", t))
	}
	return h
}

// HostData returns the values of a CPU tensor without copying them, and
// false for a tensor of another backend.
func HostData(t Tensor) ([]float32, bool) {
	h, ok := t.(Host)
	return h, ok
}

// Alloc implements Backend.
func (CPUBackend) Alloc(n int) Tensor { return Host(make([]float32, n)) }

// Upload implements Backend.
func (CPUBackend) Upload(data []float32) Tensor { return Host(append([]float32(nil), data...)) }

// Download implements Backend.
func (CPUBackend) Download(dst []float32, t Tensor) { copy(dst, host(t)) }

// Slice implements Backend.
func (CPUBackend) Slice(t Tensor, lo, hi int) Tensor { return Host(host(t)[lo:hi]) }

// Free implements Backend; the garbage collector frees host memory.
func (CPUBackend) Free(Tensor) {}

// Gemm implements Backend with the backend's BLAS.
func (c CPUBackend) Gemm(transA, transB bool, m, n, k int, alpha float32, a Tensor, lda int, b Tensor, ldb int, beta float32, cc Tensor, ldc int) {
	c.blas().Sgemm(trans(transA), trans(transB), m, n, k, alpha, host(a), lda, host(b), ldb, beta, host(cc), ldc)
}

// Gemm64 is Gemm in float64 on host slices, for the finite-difference
// checks of the training layers.
func (c CPUBackend) Gemm64(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	c.blas().Dgemm(trans(transA), trans(transB), m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// BiasAct implements Backend with BiasActSaveHost (in place).
func (CPUBackend) BiasAct(x, bias Tensor, width int, act Activation) {
	xs := host(x)
	BiasActSaveHost(xs, xs, host(bias), width, act)
}

// Add implements Backend.
func (CPUBackend) Add(dst, x Tensor) {
	d := host(dst)
	for i, v := range host(x) {
		d[i] += v
	}
}

// LayerNorm implements Backend with LayerNormHost: sums in float64, so
// the result is within float32 rounding of PyTorch's.
func (CPUBackend) LayerNorm(dst, x, gamma, beta Tensor, w int, eps float64) {
	LayerNormHost(host(dst), host(x), host(gamma), host(beta), w, eps, nil, nil)
}

// RowMoments returns the mean and the biased variance of x, summed in
// float64 in order (two passes, as torch.nn.LayerNorm's reference): the
// statistics of the CPU LayerNorm and of encoders/nn's.
func RowMoments[T ~float32 | ~float64](x []T) (mean, variance float64) {
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := float64(v) - mean
		variance += d * d
	}
	return mean, variance / float64(len(x))
}

// Embed implements Backend with EmbedHost.
func (CPUBackend) Embed(dst Tensor, w int, tables []Tensor, ids [][]int, period []int) {
	src := make([][]float32, len(tables))
	for i, t := range tables {
		src[i] = host(t)
	}
	EmbedHost(host(dst), w, src, ids, period)
}

// Rows implements Backend; a negative idx[i] leaves dst row i alone.
func (CPUBackend) Rows(dst, src Tensor, w int, idx []int) {
	d, s := host(dst), host(src)
	for i, at := range idx {
		if at >= 0 {
			copy(d[i*w:(i+1)*w], s[at*w:(at+1)*w])
		}
	}
}

// Normalize implements Backend (v / ‖v‖, as torch's x / x.norm()).
func (CPUBackend) Normalize(x Tensor, w int) {
	xs := host(x)
	for r := 0; r+w <= len(xs); r += w {
		v := xs[r : r+w]
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		n := float32(math.Sqrt(ss))
		for i := range v {
			v[i] /= n
		}
	}
}

var _ Backend = CPUBackend{}

// Adopt implements Adopter: the slice becomes the tensor, without a copy.
func (CPUBackend) Adopt(data []float32) Tensor { return Host(data) }
