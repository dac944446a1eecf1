package vhed

import (
	"math/rand/v2"
	"testing"

	"github.com/storyeval/storyeval/correlation"
)

// assessBenchPairs makes n synthetic pairs with VHED's shape: gaps in
// steps of 0.2, agreements 1..5, a third of them reference–machine.
func assessBenchPairs(n int) ([]Pair, []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	pairs := make([]Pair, n)
	pred := make([]float64, n)
	for i := range pairs {
		m1 := "modelA"
		if i%3 == 0 {
			m1 = "human"
		}
		pairs[i] = Pair{Gap: float64(rng.IntN(41)-20) / 5, Agreement: 1 + rng.IntN(5), Model1: m1, Model2: "modelB"}
		pred[i] = rng.NormFloat64()
	}
	return pairs, pred
}

// BenchmarkAssessPredictions assesses 13,000 pairs, about VHED's size,
// without and with 1,000-resample bootstrap intervals on its 12
// accuracies.
func BenchmarkAssessPredictions(b *testing.B) {
	pairs, pred := assessBenchPairs(13000)
	for _, bc := range []struct {
		name string
		opts AssessOptions
	}{
		{"plain", AssessOptions{}},
		{"bootstrap1000", AssessOptions{Intervals: true, Bootstrap: correlation.BootstrapOptions{Resamples: 1000}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := AssessPredictions(pairs, pred, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
