package pairwise

import (
	"math"
	"testing"
)

func TestSumMatchesNumpyValues(t *testing.T) {
	// Values checked against numpy 1.24: np.sum of these arrays.
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		// n < 8: sequential, so 1e16 + 1 + 1 loses both ones.
		{"sequential", []float64{1e16, 1, 1}, 1e16},
		// n = 16: eight accumulators; r0 = 1e16+1, r1 = 1+1 (the ones in
		// positions 1 and 9 meet each other before meeting 1e16).
		{"eight accumulators", []float64{1e16, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, 1e16 + 2},
	}
	for _, tt := range tests {
		if got := Sum(tt.xs); got != tt.want {
			t.Errorf("%s: Sum = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSumRecursiveSplit(t *testing.T) {
	// 300 values: split at n2 = 150 - 150%8 = 144, then 144 splits at 72,
	// 156 at 72; each leaf uses eight accumulators. Build the expected sum by
	// spelling that tree out with the block routine.
	xs := make([]float64, 300)
	for i := range xs {
		xs[i] = 1.0 / float64(i+3)
	}
	block := func(v []float64) float64 { return Sum(v) } // len ≤ 128 here
	want := (block(xs[:72]) + block(xs[72:144])) + (block(xs[144:216]) + block(xs[216:]))
	if got := Sum(xs); got != want {
		t.Fatalf("Sum = %v, want %v", got, want)
	}
	if got := Mean(xs); got != want/300 {
		t.Fatalf("Mean = %v, want %v", got, want/300)
	}
}

func TestMeanEmptyIsNaN(t *testing.T) {
	if !math.IsNaN(Mean(nil)) {
		t.Fatal("Mean(nil) is not NaN")
	}
}
