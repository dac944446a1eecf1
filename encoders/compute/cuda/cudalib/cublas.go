package cudalib

import (
	"fmt"
	"math"
	"unsafe"
)

// BLASHandle is a cublasHandle_t: cuBLAS state bound to the context current
// when it was created. One per worker (with that worker's stream).
type BLASHandle uintptr

// MathMode is a cublasMath_t.
type MathMode int32

// The math modes: MathDefault computes float32 products in float32 (no
// TF32; the mode that matches the CPU path); MathTF32 lets float32 products
// use TF32 tensor cores (10-bit mantissa inputs, float32 accumulation).
const (
	MathDefault MathMode = 0 // CUBLAS_DEFAULT_MATH
	MathTF32    MathMode = 3 // CUBLAS_TF32_TENSOR_OP_MATH
)

// DataType is a cudaDataType of GemmEx's operands.
type DataType int32

// The operand types GemmEx is called with.
const (
	Float32  DataType = 0  // CUDA_R_32F
	BFloat16 DataType = 14 // CUDA_R_16BF
)

// ComputeType is a cublasComputeType_t: the precision of GemmEx's products.
type ComputeType int32

// The compute types: plain float32, or float32 with TF32 or BF16 tensor
// cores for the products.
const (
	Compute32F         ComputeType = 68 // CUBLAS_COMPUTE_32F
	Compute32FFastBF16 ComputeType = 75 // CUBLAS_COMPUTE_32F_FAST_16BF
	Compute32FFastTF32 ComputeType = 77 // CUBLAS_COMPUTE_32F_FAST_TF32
)

// gemmAlgoDefault is CUBLAS_GEMM_DEFAULT: cuBLAS's heuristic choice.
const gemmAlgoDefault = -1

// blasFuncs are the bound cuBLAS calls (see bindAll); each returns a
// cublasStatus_t.
type blasFuncs struct {
	cublasCreate              func(h *uintptr) int32   `sym:"cublasCreate_v2"`
	cublasDestroy             func(h uintptr) int32    `sym:"cublasDestroy_v2"`
	cublasSetStream           func(h, s uintptr) int32 `sym:"cublasSetStream_v2"`
	cublasSetMathMode         func(h uintptr, mode int32) int32
	cublasGetProperty         func(prop int32, v *int32) int32
	cublasSgemm               func(h uintptr, ta, tb, m, n, k int32, alpha *float32, a uint64, lda int32, b uint64, ldb int32, beta *float32, c uint64, ldc int32) int32 `sym:"cublasSgemm_v2"`
	cublasSgemmStridedBatched func(h uintptr, ta, tb, m, n, k int32, alpha *float32, a uint64, lda int32, sa int64, b uint64, ldb int32, sb int64, beta *float32, c uint64, ldc int32, sc int64, batch int32) int32
	cublasGemmEx              func(h uintptr, ta, tb, m, n, k int32, alpha unsafe.Pointer, a uint64, at, lda int32, b uint64, bt, ldb int32, beta unsafe.Pointer, c uint64, ct, ldc, compute, algo int32) int32
}

// BLAS is the opened cuBLAS. It may be shared by goroutines; each uses
// handles of its own.
type BLAS struct {
	Loaded
	f blasFuncs
}

// OpenBLAS loads cuBLAS (of CUDA 13, else 12) and its libcublasLt from o's
// search path and binds the calls the backend makes.
func OpenBLAS(o Options) (*BLAS, error) {
	h, f, err := load[blasFuncs](o, CuBLAS)
	if err != nil {
		return nil, err
	}
	l := &BLAS{Loaded: Loaded{Path: h.path}, f: *f}
	var v [3]int32
	for i := range v { // MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
		if err := l.check(f.cublasGetProperty(int32(i), &v[i]), "cublasGetProperty"); err != nil {
			return nil, err
		}
	}
	l.Version = fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])
	return l, nil
}

func (l *BLAS) check(code int32, fn string) error {
	if code == 0 {
		return nil
	}
	return &Error{Library: CuBLAS, Func: fn, Code: int(code), Name: codeName(CuBLAS, int(code))}
}

// Create makes a handle for the current context in MathDefault mode:
// float32 products without TF32, the mode that matches the CPU path (set
// explicitly, so that a handle never starts in another mode).
func (l *BLAS) Create() (BLASHandle, error) {
	var h uintptr
	if err := l.check(l.f.cublasCreate(&h), "cublasCreate_v2"); err != nil {
		return 0, err
	}
	if err := l.SetMathMode(BLASHandle(h), MathDefault); err != nil {
		_ = l.Destroy(BLASHandle(h))
		return 0, err
	}
	return BLASHandle(h), nil
}

// Destroy releases a Create.
func (l *BLAS) Destroy(h BLASHandle) error {
	return l.check(l.f.cublasDestroy(uintptr(h)), "cublasDestroy_v2")
}

// SetStream makes h queue its work on s.
func (l *BLAS) SetStream(h BLASHandle, s Stream) error {
	return l.check(l.f.cublasSetStream(uintptr(h), uintptr(s)), "cublasSetStream_v2")
}

// SetMathMode sets h's math mode.
func (l *BLAS) SetMathMode(h BLASHandle, m MathMode) error {
	return l.check(l.f.cublasSetMathMode(uintptr(h), int32(m)), "cublasSetMathMode")
}

// Gemm describes C = alpha·op(A)·op(B) + beta·C on ROW-MAJOR matrices, as
// the CPU path's Gemm: op(A) is M×K, op(B) K×N, C M×N, with leading
// dimensions (row strides) LDA, LDB, LDC. For a batch, StrideA/B/C are the
// element distances between consecutive matrices.
type Gemm struct {
	TransA, TransB            bool
	M, N, K                   int
	Alpha, Beta               float32
	A, B, C                   DevicePtr
	LDA, LDB, LDC             int
	StrideA, StrideB, StrideC int64
	Batch                     int // 0 or 1: one product
}

// colMajor is the cuBLAS (column-major) call computing a row-major Gemm:
// a row-major matrix is its transpose in column-major order, so
// C = op(A)·op(B) becomes Cᵀ = op(B)ᵀ·op(A)ᵀ — the operands swap, M and N
// swap, and the transposition flags and leading dimensions stay.
type colMajor struct {
	opA, opB         int32 // CUBLAS_OP_N 0, CUBLAS_OP_T 1
	m, n, k          int32
	a, b             DevicePtr
	lda, ldb, ldc    int32
	strideA, strideB int64
}

// toColMajor checks g's sizes (cuBLAS takes 32-bit ints; leading dimensions
// must cover a row) and returns the column-major call.
func (g Gemm) toColMajor(fn string) (colMajor, error) {
	colsA, colsB := g.K, g.N // the row lengths of A and B as stored
	if g.TransA {
		colsA = g.M
	}
	if g.TransB {
		colsB = g.K
	}
	switch {
	case g.M <= 0 || g.N <= 0 || g.K <= 0:
		return colMajor{}, fmt.Errorf("cuda: %s: %d×%d×%d product: every size must be positive", fn, g.M, g.N, g.K)
	case g.M > math.MaxInt32 || g.N > math.MaxInt32 || g.K > math.MaxInt32 || g.LDA > math.MaxInt32 || g.LDB > math.MaxInt32 || g.LDC > math.MaxInt32 || g.Batch > math.MaxInt32:
		return colMajor{}, fmt.Errorf("cuda: %s: %d×%d×%d product exceeds cuBLAS's 32-bit sizes", fn, g.M, g.N, g.K)
	case g.LDA < colsA || g.LDB < colsB || g.LDC < g.N:
		return colMajor{}, fmt.Errorf("cuda: %s: leading dimensions %d, %d, %d below the row lengths %d, %d, %d", fn, g.LDA, g.LDB, g.LDC, colsA, colsB, g.N)
	}
	op := func(t bool) int32 {
		if t {
			return 1
		}
		return 0
	}
	return colMajor{
		opA: op(g.TransB), opB: op(g.TransA),
		m: int32(g.N), n: int32(g.M), k: int32(g.K),
		a: g.B, b: g.A,
		lda: int32(g.LDB), ldb: int32(g.LDA), ldc: int32(g.LDC),
		strideA: g.StrideB, strideB: g.StrideA,
	}, nil
}

// Sgemm computes g in float32 on h's stream (a strided batch when
// g.Batch > 1).
func (l *BLAS) Sgemm(h BLASHandle, g Gemm) error {
	if g.Batch > 1 {
		c, err := g.toColMajor("cublasSgemmStridedBatched")
		if err != nil {
			return err
		}
		return l.check(l.f.cublasSgemmStridedBatched(uintptr(h), c.opA, c.opB, c.m, c.n, c.k, &g.Alpha,
			uint64(c.a), c.lda, c.strideA, uint64(c.b), c.ldb, c.strideB, &g.Beta, uint64(g.C), c.ldc, g.StrideC, int32(g.Batch)),
			"cublasSgemmStridedBatched")
	}
	c, err := g.toColMajor("cublasSgemm_v2")
	if err != nil {
		return err
	}
	return l.check(l.f.cublasSgemm(uintptr(h), c.opA, c.opB, c.m, c.n, c.k, &g.Alpha,
		uint64(c.a), c.lda, uint64(c.b), c.ldb, &g.Beta, uint64(g.C), c.ldc), "cublasSgemm_v2")
}

// GemmEx computes g (one product) with A and B of type in, C float32, and
// the products in compute precision: Float32 operands with
// Compute32FFastBF16 or Compute32FFastTF32 (cuBLAS rounds them for the
// tensor cores: the faster modes, off by default), or BFloat16 operands
// with Compute32F.
func (l *BLAS) GemmEx(h BLASHandle, g Gemm, in DataType, compute ComputeType) error {
	c, err := g.toColMajor("cublasGemmEx")
	if err != nil {
		return err
	}
	return l.check(l.f.cublasGemmEx(uintptr(h), c.opA, c.opB, c.m, c.n, c.k, unsafe.Pointer(&g.Alpha),
		uint64(c.a), int32(in), c.lda, uint64(c.b), int32(in), c.ldb, unsafe.Pointer(&g.Beta),
		uint64(g.C), int32(Float32), c.ldc, int32(compute), gemmAlgoDefault), "cublasGemmEx")
}
