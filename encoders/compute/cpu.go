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

// HostTensor is the host backends' Tensor: a host slice.
type HostTensor[T Float] []T

// Len implements Tensor.
func (h HostTensor[T]) Len() int { return len(h) }

// Host is the CPU backend's Tensor: a float32 host slice.
type Host = HostTensor[float32]

// HostBackend runs every operation on the host in T with a BLAS for the
// matrix products: CPUBackend in float32, and in float64 the backend of
// the finite-difference checks of encoders/nn's layers, which thereby run
// the float32 backend's very code. Its zero value uses DefaultBLAS. It is
// safe for concurrent use.
type HostBackend[T Float] struct {
	// BLAS multiplies the matrices; nil means DefaultBLAS().
	BLAS BLAS
}

// CPUBackend is the CPU backend: the host in float32.
type CPUBackend = HostBackend[float32]

// CPU returns the default backend: the host, with DefaultBLAS (the
// project's SGEMM, or OpenBLAS in a build with the openblas tag).
func CPU() CPUBackend { return CPUBackend{} }

func (c HostBackend[T]) blas() BLAS {
	if c.BLAS == nil {
		return DefaultBLAS()
	}
	return c.BLAS
}

// Name implements Backend: "cpu/" (float64: "cpu64/") and the BLAS's name.
func (c HostBackend[T]) Name() string {
	prefix := "cpu/"
	if is64[T]() {
		prefix = "cpu64/"
	}
	if c.BLAS == nil {
		return prefix + BLASName
	}
	return fmt.Sprintf("%s%T", prefix, c.BLAS)
}

// hostOf returns the slice behind a tensor of a HostBackend[T].
func hostOf[T Float](t Tensor) []T {
	if t == nil {
		return nil
	}
	h, ok := t.(HostTensor[T])
	if !ok {
		panic(fmt.Sprintf("the %T backend was given a %T tensor of another backend", HostBackend[T]{}, t))
	}
	return h
}

// HostData returns the values of a CPU tensor without copying them, and
// false for a tensor of another backend.
func HostData(t Tensor) ([]float32, bool) { return HostValues[float32](t) }

// HostValues returns the values of a HostBackend[T] tensor without copying
// them, and false for a tensor of another backend.
func HostValues[T Float](t Tensor) ([]T, bool) {
	h, ok := t.(HostTensor[T])
	return h, ok
}

// convert copies src into dst, converting the element type.
func convert[D, S Float](dst []D, src []S) {
	for i, v := range src {
		dst[i] = D(v)
	}
}

// Alloc implements Backend.
func (HostBackend[T]) Alloc(n int) Tensor { return HostTensor[T](make([]T, n)) }

// Upload implements Backend.
func (HostBackend[T]) Upload(data []float32) Tensor {
	out := make([]T, len(data))
	convert(out, data)
	return HostTensor[T](out)
}

// Download implements Backend.
func (HostBackend[T]) Download(dst []float32, t Tensor) {
	convert(dst, hostOf[T](t)[:len(dst)])
}

// Slice implements Backend.
func (HostBackend[T]) Slice(t Tensor, lo, hi int) Tensor { return HostTensor[T](hostOf[T](t)[lo:hi]) }

// Free implements Backend; the garbage collector frees host memory.
func (HostBackend[T]) Free(Tensor) {}

// Gemm implements Backend with the backend's BLAS.
func (c HostBackend[T]) Gemm(transA, transB bool, m, n, k int, alpha float32, a Tensor, lda int, b Tensor, ldb int, beta float32, cc Tensor, ldc int) {
	HostGemm(c.blas(), transA, transB, m, n, k, T(alpha), hostOf[T](a), lda, hostOf[T](b), ldb, T(beta), hostOf[T](cc), ldc)
}

// Gemm64 is Gemm in float64 on host slices, for the finite-difference
// checks of the training layers.
func (c HostBackend[T]) Gemm64(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	c.blas().Dgemm(trans(transA), trans(transB), m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// BiasAct implements Backend with BiasActSaveHost (in place).
func (HostBackend[T]) BiasAct(x, bias Tensor, width int, act Activation) {
	xs := hostOf[T](x)
	BiasActSaveHost(xs, xs, hostOf[T](bias), width, act)
}

// Add implements Backend.
func (HostBackend[T]) Add(dst, x Tensor) {
	d := hostOf[T](dst)
	for i, v := range hostOf[T](x) {
		d[i] += v
	}
}

// LayerNorm implements Backend with LayerNormHost: sums in float64, so
// the result is within float32 rounding of PyTorch's.
func (HostBackend[T]) LayerNorm(dst, x, gamma, beta Tensor, w int, eps float64) {
	LayerNormHost(hostOf[T](dst), hostOf[T](x), hostOf[T](gamma), hostOf[T](beta), w, eps, nil, nil)
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
func (HostBackend[T]) Embed(dst Tensor, w int, tables []Tensor, ids [][]int, period []int) {
	src := make([][]T, len(tables))
	for i, t := range tables {
		src[i] = hostOf[T](t)
	}
	EmbedHost(hostOf[T](dst), w, src, ids, period)
}

// Rows implements Backend; a negative idx[i] leaves dst row i alone.
func (HostBackend[T]) Rows(dst, src Tensor, w int, idx []int) {
	d, s := hostOf[T](dst), hostOf[T](src)
	for i, at := range idx {
		if at >= 0 {
			copy(d[i*w:(i+1)*w], s[at*w:(at+1)*w])
		}
	}
}

// Normalize implements Backend (v / ‖v‖, as torch's x / x.norm()).
func (HostBackend[T]) Normalize(x Tensor, w int) {
	xs := hostOf[T](x)
	for r := 0; r+w <= len(xs); r += w {
		v := xs[r : r+w]
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		n := T(math.Sqrt(ss))
		for i := range v {
			v[i] /= n
		}
	}
}

var _ Backend = CPUBackend{}

// Adopt implements Adopter: in float32 the slice becomes the tensor,
// without a copy.
func (b HostBackend[T]) Adopt(data []float32) Tensor {
	if d, ok := any(data).([]T); ok {
		return HostTensor[T](d)
	}
	return b.Upload(data)
}
