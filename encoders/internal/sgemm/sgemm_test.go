package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmCase is one Sgemm call with its operands laid out with leading
// dimensions larger than or equal to the widths.
type gemmCase struct {
	tA, tB      blas.Transpose
	m, n, k     int
	alpha, beta float32
	a           []float32
	lda         int
	b           []float32
	ldb         int
	c           []float32 // C before the call
	ldc         int
}

func (g gemmCase) String() string {
	return fmt.Sprintf("tA=%c tB=%c m=%d n=%d k=%d alpha=%g beta=%g lda=%d ldb=%d ldc=%d",
		g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.beta, g.lda, g.ldb, g.ldc)
}

// padding marks elements of C outside the m×n matrix, which no
// implementation may touch.
const padding = float32(-12345.5)

func newCase(rng *rand.Rand, tA, tB blas.Transpose, m, n, k int, alpha, beta float32, extra int) gemmCase {
	g := gemmCase{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	aRows, aCols := m, k
	if tA != blas.NoTrans {
		aRows, aCols = k, m
	}
	bRows, bCols := k, n
	if tB != blas.NoTrans {
		bRows, bCols = n, k
	}
	g.lda = max(1, aCols) + extra
	g.ldb = max(1, bCols) + 2*extra
	g.ldc = max(1, n) + 3*extra
	g.a = randomMatrix(rng, aRows, g.lda)
	g.b = randomMatrix(rng, bRows, g.ldb)
	g.c = make([]float32, m*g.ldc)
	for i := range g.c {
		switch {
		case i%g.ldc >= n:
			g.c[i] = padding
		case beta == 0:
			// beta = 0 must not read C.
			g.c[i] = float32(math.NaN())
		default:
			g.c[i] = float32(rng.NormFloat64())
		}
	}
	return g
}

func randomMatrix(rng *rand.Rand, rows, ld int) []float32 {
	s := make([]float32, rows*ld)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// reference returns C after the call, computed in float64, and for each
// element the sum of the absolute values of the terms that make it.
func (g gemmCase) reference() (want, scale []float64) {
	// op(A) row after row and op(B) column after column, so that every
	// element of C is a dot product of two contiguous vectors.
	opA := make([]float64, g.m*g.k)
	opBT := make([]float64, g.n*g.k)
	for i := range g.m {
		for p := range g.k {
			var v float32
			if g.tA != blas.NoTrans {
				v = g.a[p*g.lda+i]
			} else {
				v = g.a[i*g.lda+p]
			}
			opA[i*g.k+p] = float64(g.alpha) * float64(v)
		}
	}
	for j := range g.n {
		for p := range g.k {
			var v float32
			if g.tB != blas.NoTrans {
				v = g.b[j*g.ldb+p]
			} else {
				v = g.b[p*g.ldb+j]
			}
			opBT[j*g.k+p] = float64(v)
		}
	}
	want = make([]float64, len(g.c))
	scale = make([]float64, len(g.c))
	for i := range g.c {
		want[i] = float64(g.c[i])
	}
	for i := range g.m {
		ai := opA[i*g.k : i*g.k+g.k]
		for j := range g.n {
			var sum, abs float64
			if g.alpha != 0 {
				for p, bv := range opBT[j*g.k : j*g.k+g.k] {
					t := ai[p] * bv
					sum += t
					abs += math.Abs(t)
				}
			}
			if g.beta != 0 {
				t := float64(g.beta) * float64(g.c[i*g.ldc+j])
				sum += t
				abs += math.Abs(t)
			}
			want[i*g.ldc+j] = sum
			scale[i*g.ldc+j] = abs
		}
	}
	return want, scale
}

// run calls the implementation on a copy of C and returns it.
func (g gemmCase) run(kern microKernel) []float32 {
	c := append([]float32(nil), g.c...)
	sgemm(kern, g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c, g.ldc)
	return c
}

// check compares got with the float64 reference: every element within
// 1e-5 of the sum of the absolute values of its terms, the padding
// untouched.
func (g gemmCase) check(t *testing.T, name string, got []float32) {
	t.Helper()
	want, scale := g.reference()
	g.checkAgainst(t, name, got, want, scale)
}

// checkAgainst is check with the reference already computed.
func (g gemmCase) checkAgainst(t *testing.T, name string, got []float32, want, scale []float64) {
	t.Helper()
	bad := 0
	for i, w := range want {
		if i%g.ldc >= g.n {
			if got[i] != padding {
				t.Errorf("%s %v: padding element %d changed to %g", name, g, i, got[i])
				return
			}
			continue
		}
		if math.Abs(float64(got[i])-w) > 1e-5*scale[i] || math.IsNaN(float64(got[i])) {
			if bad < 3 {
				t.Errorf("%s %v: C[%d,%d] = %g, want %g (term scale %g)", name, g, i/g.ldc, i%g.ldc, got[i], w, scale[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s %v: %d of %d elements wrong", name, g, bad, g.m*g.n)
	}
}

var (
	transposes = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	alphas     = []float32{1, 0.5, 0}
	betas      = []float32{0, 1, -2}
	// edgeSizes are the sizes around the register and cache blocks.
	edgeSizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 63, 64, 65, 66, 67, 255, 256, 257}
)

// kernels are the micro-kernels under test: the one this CPU uses and the
// portable one.
var kernels = availableKernels()

func TestSgemmAllOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tA := range transposes {
		for _, tB := range transposes {
			for _, alpha := range alphas {
				for _, beta := range betas {
					g := newCase(rng, tA, tB, 13, 35, 19, alpha, beta, 3)
					want, scale := g.reference()
					for _, kk := range kernels {
						g.checkAgainst(t, kk.name, g.run(kk), want, scale)
					}
				}
			}
		}
	}
}

func TestSgemmEdgeSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := 600
	if testing.Short() {
		cases = 100
	}
	for range cases {
		m := edgeSizes[rng.IntN(len(edgeSizes))]
		n := edgeSizes[rng.IntN(len(edgeSizes))]
		k := edgeSizes[rng.IntN(len(edgeSizes))]
		g := newCase(rng, transposes[rng.IntN(2)], transposes[rng.IntN(2)], m, n, k,
			alphas[rng.IntN(len(alphas))], betas[rng.IntN(len(betas))], rng.IntN(3))
		want, scale := g.reference()
		for _, kk := range kernels {
			g.checkAgainst(t, kk.name, g.run(kk), want, scale)
		}
	}
}

// TestSgemmBlockBoundaries crosses the mc, nc and kc cache blocks and takes
// the parallel path.
func TestSgemmBlockBoundaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := [][3]int{
		{mc + 5, 2*32 + 3, 2*kc + 7}, // several row and depth blocks
		{7, nc + 21, kc + 1},         // two column panels
		{300, 200, 150},              // parallel: pieces of C cut both ways
		{130, 1000, 70},              // parallel, ragged pieces
		{2*mc + 13, 40, 3*kc - 1},    // parallel, few columns
		{128, 128, 64},               // a per-head attention product
		{1, 4 * nc, 3},               // a single row
		{4 * mc, 1, 2*kc + 1},        // a single column
		{mc - 1, 65, kc - 1},         // one block, ragged
		{2 * mc, 96, 2 * kc},         // whole blocks
		{6 * 40, 128, 1024},          // parallel, deep
	}
	if testing.Short() {
		shapes = shapes[2:6]
	}
	for _, s := range shapes {
		for _, tr := range [][2]blas.Transpose{{blas.NoTrans, blas.NoTrans}, {blas.Trans, blas.Trans}, {blas.NoTrans, blas.Trans}, {blas.Trans, blas.NoTrans}} {
			g := newCase(rng, tr[0], tr[1], s[0], s[1], s[2], 0.5, -2, 1)
			want, scale := g.reference()
			for _, kk := range kernels {
				g.checkAgainst(t, kk.name, g.run(kk), want, scale)
			}
		}
	}
}

// TestSgemmSameAsGonum checks the result against gonum's own Sgemm on the
// shapes of the encoders.
func TestSgemmSameAsGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, s := range [][3]int{{128, 768, 96}, {77, 512, 64}, {128, 128, 64}, {50, 64, 50}} {
		g := newCase(rng, blas.NoTrans, blas.Trans, s[0], s[1], s[2], 1, 0, 0)
		got := g.run(defaultKernel)
		want := append([]float32(nil), g.c...)
		gonum.Implementation{}.Sgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, want, g.ldc)
		_, scale := g.reference()
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 2e-5*scale[i] {
				t.Fatalf("%v: C[%d] = %g, gonum %g", g, i, got[i], want[i])
			}
		}
	}
}

// TestSgemmIndependentOfGOMAXPROCS checks that splitting the work between
// goroutines does not change any bit of the result: every element of C is
// summed in the same order whichever goroutine computes it.
func TestSgemmIndependentOfGOMAXPROCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	cases := []gemmCase{
		newCase(rng, blas.NoTrans, blas.NoTrans, 300, 220, 300, 1, 0, 0),
		newCase(rng, blas.Trans, blas.Trans, 97, 1000, 270, 0.5, 1, 2),
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, g := range cases {
		runtime.GOMAXPROCS(1)
		want := g.run(defaultKernel)
		for _, procs := range []int{2, 3, 4, 7} {
			runtime.GOMAXPROCS(procs)
			got := g.run(defaultKernel)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%v: GOMAXPROCS=%d: C[%d] = %g, with 1: %g", g, procs, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSgemmConcurrent runs products from several goroutines at once, as the
// attention heads do; run with -race.
func TestSgemmConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var cases []gemmCase
	for i := range 8 {
		m := 64 + 16*i
		cases = append(cases, newCase(rng, blas.NoTrans, blas.Trans, m, 128, 64, 1, 0, 0))
	}
	cases = append(cases, newCase(rng, blas.NoTrans, blas.NoTrans, 256, 256, 256, 1, 0, 0))
	results := make([][]float32, len(cases))
	var wg sync.WaitGroup
	for i, g := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = g.run(defaultKernel)
		}()
	}
	wg.Wait()
	for i, g := range cases {
		g.check(t, "concurrent", results[i])
	}
}

// TestSgemmPanicsAsGonum checks that invalid arguments panic with gonum's
// messages, and that the checks come in gonum's order.
func TestSgemmPanicsAsGonum(t *testing.T) {
	s := make([]float32, 100)
	cases := []struct {
		name        string
		tA, tB      blas.Transpose
		m, n, k     int
		a           []float32
		lda         int
		b           []float32
		ldb         int
		c           []float32
		ldc         int
		wantMessage string
	}{
		{"bad tA", 'X', blas.NoTrans, 2, 2, 2, s, 2, s, 2, s, 2, badTranspose},
		{"bad tB", blas.NoTrans, 0, 2, 2, 2, s, 2, s, 2, s, 2, badTranspose},
		{"m<0", blas.NoTrans, blas.NoTrans, -1, 2, 2, s, 2, s, 2, s, 2, mLT0},
		{"n<0", blas.NoTrans, blas.NoTrans, 2, -1, 2, s, 2, s, 2, s, 2, nLT0},
		{"k<0", blas.NoTrans, blas.NoTrans, 2, 2, -1, s, 2, s, 2, s, 2, kLT0},
		{"lda<k", blas.NoTrans, blas.NoTrans, 2, 2, 3, s, 2, s, 2, s, 2, badLdA},
		{"lda<m", blas.Trans, blas.NoTrans, 3, 2, 2, s, 2, s, 2, s, 2, badLdA},
		{"lda=0", blas.NoTrans, blas.NoTrans, 0, 0, 0, s, 0, s, 1, s, 1, badLdA},
		{"ldb<n", blas.NoTrans, blas.NoTrans, 2, 3, 2, s, 2, s, 2, s, 3, badLdB},
		{"ldb<k", blas.NoTrans, blas.Trans, 2, 2, 3, s, 3, s, 2, s, 2, badLdB},
		{"ldc<n", blas.NoTrans, blas.NoTrans, 2, 3, 2, s, 2, s, 3, s, 2, badLdC},
		{"short a", blas.NoTrans, blas.NoTrans, 2, 2, 2, s[:3], 2, s, 2, s, 2, shortA},
		{"short aT", blas.Trans, blas.NoTrans, 2, 2, 2, s[:3], 2, s, 2, s, 2, shortA},
		{"short b", blas.NoTrans, blas.NoTrans, 2, 2, 2, s, 2, s[:3], 2, s, 2, shortB},
		{"short bT", blas.NoTrans, blas.Trans, 2, 2, 2, s, 2, s[:3], 2, s, 2, shortB},
		{"short c", blas.NoTrans, blas.NoTrans, 2, 2, 2, s, 2, s, 2, s[:3], 2, shortC},
		{"short c, big ldc", blas.NoTrans, blas.NoTrans, 2, 2, 2, s, 2, s, 2, s[:11], 10, shortC},
	}
	catch := func(f func()) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		f()
		return ""
	}
	for _, tc := range cases {
		got := catch(func() {
			Implementation{}.Sgemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 1, tc.a, tc.lda, tc.b, tc.ldb, 0, tc.c, tc.ldc)
		})
		gonumGot := catch(func() {
			gonum.Implementation{}.Sgemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 1, tc.a, tc.lda, tc.b, tc.ldb, 0, tc.c, tc.ldc)
		})
		if got != tc.wantMessage || gonumGot != tc.wantMessage {
			t.Errorf("%s: panic %q, gonum %q, want %q", tc.name, got, gonumGot, tc.wantMessage)
		}
	}
}

// TestSgemmEmpty checks the quick returns: m or n = 0 touches nothing even
// with empty operands; k = 0 only scales C.
func TestSgemmEmpty(t *testing.T) {
	Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, 0, 5, 3, 1, nil, 3, nil, 5, 0, nil, 5)
	Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, 4, 0, 3, 1, nil, 3, nil, 1, 0, nil, 1)
	// (k = 0 still needs (m-1)·lda elements of A, as in gonum.)
	inf := float32(math.Inf(1))
	c := []float32{1, 2, padding, 3, float32(math.NaN()), padding}
	Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, []float32{inf}, 1, nil, 2, -2, c, 3)
	want := []float32{-2, -4, padding, -6, float32(math.NaN()), padding}
	for i := range c {
		if c[i] != want[i] && !(math.IsNaN(float64(c[i])) && math.IsNaN(float64(want[i]))) {
			t.Errorf("k=0, beta=-2: C = %v, want %v", c, want)
			break
		}
	}
	c = []float32{float32(math.NaN()), 2, padding, 3, 4, padding}
	Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 0, 1, []float32{inf}, 1, nil, 2, 0, c, 3)
	if want := []float32{0, 0, padding, 0, 0, padding}; fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("k=0, beta=0: C = %v, want %v", c, want)
	}
	// alpha = 0 reads neither A nor B: infinities there do not reach C.
	c = []float32{1, 2}
	Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, 1, 2, 1, 0, []float32{inf}, 1, []float32{inf, 1}, 2, 0.5, c, 2)
	if c[0] != 0.5 || c[1] != 1 {
		t.Errorf("alpha=0: C = %v, want [0.5 1]", c)
	}
}
