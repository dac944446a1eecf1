package correlation

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchData returns n (x, y) pairs: continuous, or 5-level Likert x against
// a continuous y (heavy ties in x).
func benchData(n int, likert bool) ([]float64, []float64) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range n {
		x[i] = rng.NormFloat64()
		y[i] = 0.5*x[i] + rng.NormFloat64()
		if likert {
			x[i] = float64(1 + rng.IntN(5))
		}
	}
	return x, y
}

func BenchmarkCoefficients(b *testing.B) {
	fns := []struct {
		name string
		fn   Coefficient
	}{
		{"Pearson", Pearson}, {"Spearman", Spearman}, {"KendallTauB", KendallTauB}, {"KendallTauC", KendallTauC},
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, likert := range []bool{false, true} {
			x, y := benchData(n, likert)
			kind := "continuous"
			if likert {
				kind = "likert"
			}
			for _, f := range fns {
				b.Run(fmt.Sprintf("%s/%s/n=%d", f.name, kind, n), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := f.fn(x, y); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

func BenchmarkPointBiserial(b *testing.B) {
	x, y := benchData(100_000, false)
	flags := make([]bool, len(x))
	for i, v := range x {
		flags[i] = v > 0
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PointBiserial(flags, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBootstrapSpearman(b *testing.B) {
	x, y := benchData(1_000, true)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Bootstrap(x, y, Spearman, BootstrapOptions{Resamples: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
