package encoders

import (
	"math"
	"testing"
)

// erf32 must stay within 6.5e-8 of math.Erf everywhere (checked on a fine
// grid across and beyond its clamp at ±4), so GELU stays within float32
// rounding of PyTorch's.
func TestErf32(t *testing.T) {
	worst, at := 0.0, 0.0
	for x := -8.0; x <= 8; x += 1.0 / 4096 {
		if d := math.Abs(erf32(x) - math.Erf(x)); d > worst {
			worst, at = d, x
		}
	}
	if worst > 6.5e-8 {
		t.Fatalf("|erf32 - erf| = %.3g at x = %g, want ≤ 6.5e-8", worst, at)
	}
}

// Each activation must give the same values on the parallel path (long
// input) as element by element.
func TestActivationsParallelMatchesSerial(t *testing.T) {
	n := 1<<15 + 3
	for name, act := range map[string]activation{"gelu": geluErf, "gelu_new": geluTanh, "quick_gelu": quickGELU} {
		long := make([]float32, n)
		for i := range long {
			long[i] = float32(i%997)/100 - 5
		}
		want := make([]float32, n)
		for i, v := range long {
			one := []float32{v}
			act(one)
			want[i] = one[0]
		}
		act(long)
		for i := range long {
			if long[i] != want[i] {
				t.Fatalf("%s: element %d parallel %g, serial %g", name, i, long[i], want[i])
			}
		}
	}
}
