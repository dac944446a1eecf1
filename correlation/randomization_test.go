package correlation

import (
	"math"
	"testing"
)

// Hand-computed exact cases: with differences d, the 2^n sign patterns give
// sums ±d1 ± d2 ± …; p is the share whose magnitude reaches |Σd|.
func TestPairedRandomizationExactHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a, b     []float64
		p, meanD float64
	}{
		// d = 1,2,3,4: |Σ| = 10 is reached only by all-plus and all-minus:
		// 2 of 16 patterns.
		{"all positive", []float64{1, 2, 3, 4}, []float64{0, 0, 0, 0}, 2.0 / 16, 2.5},
		// d = 1,1,1,−1: Σ = 2. Sums with one sign changed: flipping one of
		// the +1s gives 0, flipping the −1 gives 4; |Σ| ≥ 2 for patterns
		// with 0 or 1 or 3 or 4 of the three +1s flipped combined with the
		// −1 either way: count sums ±(a+b+c) ± 1 where a,b,c ∈ {±1}:
		// (a+b+c) ∈ {3 (1 way), 1 (3), −1 (3), −3 (1)}; with ±1 added:
		// 3±1 → 4,2 (2 patterns ≥2), 1±1 → 2,0 (3 patterns reach 2),
		// −1±1 → 0,−2 (3), −3±1 → −2,−4 (2): 10 of 16.
		{"mixed", []float64{2, 2, 2, 0}, []float64{1, 1, 1, 1}, 10.0 / 16, 0.5},
		// Identical systems: every pattern reaches |0|.
		{"identical", []float64{0.3, 0.7}, []float64{0.3, 0.7}, 1, 0},
	} {
		r, err := PairedRandomization(tc.a, tc.b, RandomizationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exact || r.Rounds != 1<<len(tc.a) || math.Abs(r.P-tc.p) > 1e-15 || math.Abs(r.MeanDifference-tc.meanD) > 1e-15 {
			t.Errorf("%s: %+v, want exact p = %v, mean difference %v", tc.name, r, tc.p, tc.meanD)
		}
	}
}

// The random test approaches the exact p-value and is reproducible.
func TestPairedRandomizationRandomMatchesExact(t *testing.T) {
	a := []float64{0.9, 0.4, 0.8, 0.7, 0.2, 0.6, 0.9, 0.5, 0.3, 0.8, 0.7, 0.6}
	b := []float64{0.5, 0.5, 0.6, 0.4, 0.3, 0.2, 0.7, 0.5, 0.4, 0.3, 0.6, 0.2}
	exact, err := PairedRandomization(a, b, RandomizationOptions{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	// 24 items: the largest set the exact test enumerates, and more than
	// the default threshold, so Rounds selects the random test on the same
	// data.
	a2, b2 := append(append([]float64{}, a...), a...), append(append([]float64{}, b...), b...)
	exact2, err := PairedRandomization(a2, b2, RandomizationOptions{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	rnd, err := PairedRandomization(a2, b2, RandomizationOptions{Rounds: 200000, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if rnd.Exact || rnd.Rounds != 200000 {
		t.Fatalf("24 items with Rounds: got %+v, want the random test", rnd)
	}
	// Binomial standard error of p at 200k rounds is below 0.0012.
	if math.Abs(rnd.P-exact2.P) > 0.005 {
		t.Fatalf("random p %v vs exact %v", rnd.P, exact2.P)
	}
	again, _ := PairedRandomization(a2, b2, RandomizationOptions{Rounds: 200000, Seed: 7})
	if again != rnd {
		t.Fatalf("same seed gave %+v then %+v", rnd, again)
	}
	if !(exact.P > 0 && exact.P < 0.05) {
		t.Fatalf("12 items, 10 favouring a: exact p %v, want significant", exact.P)
	}
}

func TestPairedRandomizationErrors(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		opts RandomizationOptions
	}{
		{[]float64{1}, []float64{1, 2}, RandomizationOptions{}},
		{nil, nil, RandomizationOptions{}},
		{[]float64{math.NaN()}, []float64{1}, RandomizationOptions{}},
		{make([]float64, 30), make([]float64, 30), RandomizationOptions{Exact: true}},
		{[]float64{1}, []float64{2}, RandomizationOptions{Rounds: -1}},
	} {
		if _, err := PairedRandomization(tc.a, tc.b, tc.opts); err == nil {
			t.Errorf("PairedRandomization(%v, %v, %+v): no error", tc.a, tc.b, tc.opts)
		}
	}
}

// For two observations the bootstrap means are x1, (x1+x2)/2 or x2 with
// probabilities 1/4, 1/2, 1/4, so the 95 % percentile interval is [x1, x2].
func TestMeanIntervalTwoObservations(t *testing.T) {
	iv, err := MeanInterval([]float64{1, 3}, BootstrapOptions{Resamples: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if iv.Estimate != 2 || iv.Low != 1 || iv.High != 3 || iv.Undefined != 0 {
		t.Fatalf("interval %+v, want estimate 2 in [1, 3]", iv)
	}
	if _, err := MeanInterval([]float64{1, math.NaN()}, BootstrapOptions{}); err == nil {
		t.Fatal("NaN accepted")
	}
	if _, err := MeanInterval(nil, BootstrapOptions{}); err == nil {
		t.Fatal("empty accepted")
	}
}
