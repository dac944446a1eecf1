package correlation

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// TestRegIncBetaMatchesCephes compares with gonum's Cephes incbet where the
// latter is accurate (a + b well below 171, x away from 1).
func TestRegIncBetaMatchesCephes(t *testing.T) {
	for _, a := range []float64{0.5, 1, 2.5, 10, 40} {
		for _, b := range []float64{0.5, 1, 3, 17, 60} {
			for _, x := range []float64{1e-8, 0.01, 0.2, 0.5, 0.77, 0.9} {
				got := regIncBeta(a, b, x, 1-x)
				want := mathext.RegIncBeta(a, b, x)
				if want < 1e-280 {
					continue
				}
				if math.Abs(got-want) > 2e-13*want {
					t.Errorf("I(%v; %v, %v) = %v, Cephes %v (rel %g)", x, a, b, got, want, (got-want)/want)
				}
			}
		}
	}
}

// TestRegIncBetaClosedForms: I_x(a, 1) = x^a, I_x(1, b) = 1 − (1−x)^b and
// I_x(½, ½) = (2/π)·asin(√x).
func TestRegIncBetaClosedForms(t *testing.T) {
	for _, x := range []float64{1e-12, 1e-5, 0.03, 0.3, 0.5, 0.8, 0.999} {
		for _, a := range []float64{0.5, 3, 250, 5e4} {
			// exp(a·ln x) rather than math.Pow, whose repeated squaring
			// loses about a·ulp for large integer a.
			if want := math.Exp(a * math.Log(x)); want > 1e-290 {
				if got := regIncBeta(a, 1, x, 1-x); math.Abs(got-want) > 1e-13*want {
					t.Errorf("I(%v; %v, 1) = %v, want %v", x, a, got, want)
				}
			}
			want := -math.Expm1(a * math.Log1p(-x))
			if got := regIncBeta(1, a, x, 1-x); math.Abs(got-want) > 1e-13*want {
				t.Errorf("I(%v; 1, %v) = %v, want %v", x, a, got, want)
			}
		}
		want := 2 / math.Pi * math.Asin(math.Sqrt(x))
		if got := regIncBeta(0.5, 0.5, x, 1-x); math.Abs(got-want) > 1e-14*want {
			t.Errorf("I(%v; ½, ½) = %v, want %v", x, got, want)
		}
	}
}

// TestRegIncBetaRandomAgainstCephes sweeps random shapes and arguments in
// the range where Cephes is accurate (a + b < 100, no lgamma fallback).
func TestRegIncBetaRandomAgainstCephes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	worst := 0.0
	for range 20_000 {
		a := 0.5 + 49*rng.Float64()
		b := 0.5 + 49*rng.Float64()
		x := rng.Float64()
		want := mathext.RegIncBeta(a, b, x)
		if want < 1e-280 || want > 1-1e-6 {
			continue // Cephes itself is only absolutely accurate near 1
		}
		got := regIncBeta(a, b, x, 1-x)
		rel := math.Abs(got-want) / want
		worst = math.Max(worst, rel)
		if rel > 1e-12 {
			t.Errorf("I(%v; %v, %v) = %v, Cephes %v (rel %g)", x, a, b, got, want, rel)
		}
	}
	t.Logf("worst relative difference %g", worst)
}
