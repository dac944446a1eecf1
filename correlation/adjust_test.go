package correlation

import (
	"math"
	"testing"
)

// The expected values are R's p.adjust, worked by hand:
//
// p = (0.01, 0.04, 0.03, 0.005), m = 4, sorted 0.005 < 0.01 < 0.03 < 0.04.
// Holm: 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06, 1·0.04 = 0.04 → running
// max 0.02, 0.03, 0.06, 0.06, so p.adjust gives 0.03 0.06 0.06 0.02.
// BH from the largest: 4/4·0.04 = 0.04, 4/3·0.03 = 0.04, 4/2·0.01 = 0.02,
// 4/1·0.005 = 0.02 → running min 0.04, 0.04, 0.02, 0.02, so 0.02 0.04 0.04 0.02.
//
// p = (0.5, 0.6): Holm 2·0.5 = 1, max(1, 0.6) = 1 → 1 1; BH 0.6, min(0.6,
// 2·0.5) = 0.6 → 0.6 0.6.
//
// A NaN is left out of m: (NaN, 0.02, 0.04) is (0.02, 0.04) with m = 2:
// Holm 0.04, max(0.04, 0.04) = 0.04; BH 0.04, min(0.04, 2·0.02) = 0.04.
//
// Ties keep their order: (0.01, 0.01, 0.03): Holm 0.03, max(0.03, 0.02),
// max(0.03, 0.03) → 0.03 0.03 0.03; BH 0.03, min(0.03, 3/2·0.01 = 0.015),
// min(0.015, 0.03) → 0.015 0.015 0.03.
func TestAdjustP(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		p, holm, bh []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}, []float64{0.02, 0.04, 0.04, 0.02}},
		{[]float64{0.5, 0.6}, []float64{1, 1}, []float64{0.6, 0.6}},
		{[]float64{nan, 0.02, 0.04}, []float64{nan, 0.04, 0.04}, []float64{nan, 0.04, 0.04}},
		{[]float64{0.01, 0.01, 0.03}, []float64{0.03, 0.03, 0.03}, []float64{0.015, 0.015, 0.03}},
		{[]float64{0.2}, []float64{0.2}, []float64{0.2}},
		{nil, []float64{}, []float64{}},
	} {
		for _, m := range []struct {
			method Correction
			want   []float64
		}{{Holm, c.holm}, {BenjaminiHochberg, c.bh}, {NoCorrection, c.p}} {
			got, err := AdjustP(c.p, m.method)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.p) {
				t.Fatalf("%v %v: %d values", m.method, c.p, len(got))
			}
			for i := range got {
				if w := m.want[i]; !(math.Abs(got[i]-w) < 1e-15 || math.IsNaN(got[i]) && math.IsNaN(w)) {
					t.Errorf("%v of %v: %v, want %v", m.method, c.p, got, m.want)
					break
				}
			}
		}
	}
	if _, err := AdjustP([]float64{0.5, 1.5}, Holm); err == nil {
		t.Errorf("a p-value of 1.5 is accepted")
	}
	if _, err := AdjustP([]float64{0.5}, Correction(7)); err == nil {
		t.Errorf("an unknown correction is accepted")
	}
	if Holm.String() != "holm" || BenjaminiHochberg.String() != "BH" {
		t.Errorf("names %q, %q", Holm, BenjaminiHochberg)
	}
}
