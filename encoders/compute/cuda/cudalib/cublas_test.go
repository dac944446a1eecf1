package cudalib

import (
	"math"
	"strings"
	"testing"
)

// colMajorGemm is the reference BLAS sgemm on column-major matrices:
// C = op(A)·op(B), op(A) m×k, where a column-major element (i, j) of X is
// X[i + j·ldx].
func colMajorGemm(opA, opB int32, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	at := func(x []float32, ld int, t bool, i, j int) float32 {
		if t {
			return x[j+i*ld]
		}
		return x[i+j*ld]
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float32
			for p := 0; p < k; p++ {
				s += at(a, lda, opA == 1, i, p) * at(b, ldb, opB == 1, p, j)
			}
			c[i+j*ldc] = s
		}
	}
}

// TestRowMajorGemmMapping checks that the column-major call Sgemm makes
// computes the row-major product the CPU path's Gemm computes, for every
// transposition and padded leading dimensions.
func TestRowMajorGemmMapping(t *testing.T) {
	const m, n, k = 3, 4, 5
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			// Row-major storage: A is m×k (k×m transposed), B is k×n (n×k).
			ra, ca := m, k
			if ta {
				ra, ca = k, m
			}
			rb, cb := k, n
			if tb {
				rb, cb = n, k
			}
			lda, ldb, ldc := ca+2, cb+1, n+3
			a, b := make([]float32, ra*lda), make([]float32, rb*ldb)
			for i := range a {
				a[i] = float32(i%7) - 3
			}
			for i := range b {
				b[i] = float32(i%5) - 1.5
			}
			want := make([]float32, m*ldc)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var s float32
					for p := 0; p < k; p++ {
						ai, bi := i*lda+p, p*ldb+j
						if ta {
							ai = p*lda + i
						}
						if tb {
							bi = j*ldb + p
						}
						av, bv := a[ai], b[bi]
						s += av * bv
					}
					want[i*ldc+j] = s
				}
			}
			g := Gemm{TransA: ta, TransB: tb, M: m, N: n, K: k, A: 1, B: 2, LDA: lda, LDB: ldb, LDC: ldc}
			call, err := g.toColMajor("test")
			if err != nil {
				t.Fatal(err)
			}
			mat := map[DevicePtr][]float32{1: a, 2: b}
			got := make([]float32, m*ldc)
			colMajorGemm(call.opA, call.opB, int(call.m), int(call.n), int(call.k), mat[call.a], int(call.lda), mat[call.b], int(call.ldb), got, int(call.ldc))
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					if got[i*ldc+j] != want[i*ldc+j] {
						t.Fatalf("transA %v transB %v: C[%d][%d] = %v, want %v", ta, tb, i, j, got[i*ldc+j], want[i*ldc+j])
					}
				}
			}
		}
	}
}

func TestGemmSizeErrors(t *testing.T) {
	for _, c := range []struct {
		g    Gemm
		want string
	}{
		{Gemm{M: 0, N: 2, K: 2, LDA: 2, LDB: 2, LDC: 2}, "every size must be positive"},
		{Gemm{M: 2, N: 2, K: 3, LDA: 2, LDB: 2, LDC: 2}, "leading dimensions 2, 2, 2 below the row lengths 3, 2, 2"},
		{Gemm{TransA: true, M: 4, N: 2, K: 3, LDA: 3, LDB: 2, LDC: 2}, "below the row lengths 4, 2, 2"},
		{Gemm{M: math.MaxInt32 + 1, N: 1, K: 1, LDA: 1, LDB: 1, LDC: 1}, "exceeds cuBLAS's 32-bit sizes"},
	} {
		_, err := c.g.toColMajor("cublasSgemm_v2")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cuda: cublasSgemm_v2: ") {
			t.Errorf("%+v: error %v, want one naming cublasSgemm_v2 and %q", c.g, err, c.want)
		}
	}
}

func TestChooseArch(t *testing.T) {
	supported := []int{75, 80, 86, 87, 89, 90, 100, 120}
	for cc, want := range map[int]int{90: 90, 89: 89, 88: 87, 103: 100, 75: 75} {
		if got, err := ChooseArch(supported, cc); err != nil || got != want {
			t.Errorf("compute capability %d: got %d, %v; want %d", cc, got, err, want)
		}
	}
	if _, err := ChooseArch(supported, 70); err == nil || !strings.Contains(err.Error(), "compute capability 7.0") {
		t.Errorf("a device older than every architecture: error %v", err)
	}
}

func TestArgsPacking(t *testing.T) {
	var a Args
	a.Ptr(0xdeadbeef00).Int(-2).Int64(-3).Uint64(1 << 63).Float32(1.5).Float64(-0.25)
	want := []uint64{0xdeadbeef00, 0xfffffffe, math.MaxUint64 - 2, 1 << 63, uint64(math.Float32bits(1.5)), math.Float64bits(-0.25)}
	if a.Kinds() != "pilufd" {
		t.Errorf("kinds %q, want pilufd", a.Kinds())
	}
	if a.Len() != len(want) {
		t.Fatalf("%d arguments, want %d", a.Len(), len(want))
	}
	for i, w := range want {
		if a.vals[i] != w {
			t.Errorf("argument %d: slot %#x, want %#x", i, a.vals[i], w)
		}
	}
	a.Reset()
	if a.Len() != 0 || a.Kinds() != "" {
		t.Errorf("Reset left %d arguments", a.Len())
	}
}
