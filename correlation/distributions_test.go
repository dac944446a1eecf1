package correlation

import (
	"math"
	"testing"
)

// TestPearsonBetaEqualsStudentT cross-checks two different evaluations of
// the incomplete beta function: the null distribution of Pearson's r (beta
// with a = b = n/2 − 1 on (−1, 1)) is that of t = r·√((n−2)/(1−r²)) with
// n − 2 degrees of freedom, so both p-values must agree, also for sample
// sizes far beyond the SciPy fixtures.
func TestPearsonBetaEqualsStudentT(t *testing.T) {
	for _, n := range []int{3, 4, 10, 57, 400, 5_000, 100_000} {
		for _, r := range []float64{0, 1e-6, 0.003, 0.05, 0.2, 0.5, 0.9, 0.999} {
			df := float64(n - 2)
			// pearsonTwoSidedP works on (|r|+1)/2 as SciPy does, which
			// rounds r; compare at the r that survives the rounding.
			r := 2*((r+1)/2) - 1
			tStat := r * math.Sqrt(df/(1-r*r))
			beta := pearsonTwoSidedP(r, n)
			student := studentTwoSidedP(df, tStat)
			if student < 1e-300 {
				continue
			}
			// Two different evaluations (a = b = n/2−1 against a = n/2−1,
			// b = ½, on different sides of the continued fraction's switch).
			const tol = 1e-12
			if math.Abs(beta-student) > tol*student {
				t.Errorf("n=%d r=%v: beta p %v, Student p %v (rel %g)", n, r, beta, student, (beta-student)/student)
			}
		}
	}
}

func TestNormalTwoSidedP(t *testing.T) {
	// 2Φ(−1.959963984540054) = 0.05; 2Φ(−z) = erfc(z/√2) in general.
	for _, z := range []float64{0, 0.3, 1, 1.959963984540054, 5, -7, 30} {
		want := math.Erfc(math.Abs(z) / math.Sqrt2)
		// Cephes (and so SciPy and this package) rounds z·√½ before erfc,
		// which moves far-tail values by about z²·ulp relative.
		if got := normalTwoSidedP(z); math.Abs(got-want) > 1e-12*math.Max(want, 1e-300) {
			t.Errorf("z=%v: %v, want %v", z, got, want)
		}
	}
	if p := normalTwoSidedP(1.959963984540054); math.Abs(p-0.05) > 1e-15 {
		t.Errorf("z=1.96: p %v, want 0.05", p)
	}
}

// TestStudentSmallTLargeDF checks the reflection that keeps precision when
// t² ≪ df: for n = 10⁵ and r = 10⁻⁶, 1 − p = ∫ over |ρ| < r of the null
// density of r, which is 2r·Γ((n−1)/2)/(√π·Γ((n−2)/2))·(1 − (n−4)r²/6 + …);
// with x = (n−2)/2, Γ(x+½)/Γ(x) = √x·(1 − 1/(8x) + 1/(128x²) − …).
func TestStudentSmallTLargeDF(t *testing.T) {
	const n, r = 100_000, 1e-6
	x := float64(n-2) / 2
	density0 := math.Sqrt(x) * (1 - 1/(8*x) + 1/(128*x*x)) / math.Sqrt(math.Pi)
	want := 1 - 2*r*density0*(1-float64(n-4)*r*r/6)
	df := float64(n - 2)
	got := studentTwoSidedP(df, r*math.Sqrt(df/(1-r*r)))
	if math.Abs(got-want) > 1e-13 {
		t.Errorf("p = %.17g, series %.17g (diff %g)", got, want, got-want)
	}
}

func TestStudentEndCases(t *testing.T) {
	for _, c := range []struct{ df, t, want float64 }{
		{8, math.Inf(1), 0}, {8, math.Inf(-1), 0}, {8, 0, 1}, {1, 1, 0.5}, // Cauchy: P(|T| > 1) = ½
	} {
		if got := studentTwoSidedP(c.df, c.t); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("df=%v t=%v: p %v, want %v", c.df, c.t, got, c.want)
		}
	}
	for _, c := range []struct{ df, t float64 }{{0, 1}, {-1, 1}, {5, math.NaN()}} {
		if got := studentTwoSidedP(c.df, c.t); !math.IsNaN(got) {
			t.Errorf("df=%v t=%v: p %v, want NaN", c.df, c.t, got)
		}
	}
	// Spearman with ρ = −1 exactly (for n = 7 numpy's corrcoef arithmetic,
	// reproduced bit for bit, rounds to exactly −1, so t = −Inf): p = 0.
	res, err := Spearman([]float64{1, 2, 3, 4, 5, 6, 7}, []float64{7, 6, 5, 4, 3, 2, 1})
	if err != nil || res.Statistic != -1 || res.P != 0 {
		t.Errorf("perfect inverse ranking: %+v, %v", res, err)
	}
}
