package npmath

import (
	"math"
	"testing"
)

// Erf32 must stay within 6.5e-8 of math.Erf everywhere (checked on a fine
// grid across and beyond its clamp at ±4), so GELU stays within float32
// rounding of PyTorch's.
func TestErf32(t *testing.T) {
	worst, at := 0.0, 0.0
	for x := -8.0; x <= 8; x += 1.0 / 4096 {
		if d := math.Abs(Erf32(x) - math.Erf(x)); d > worst {
			worst, at = d, x
		}
	}
	if worst > 6.5e-8 {
		t.Fatalf("|Erf32 - erf| = %.3g at x = %g, want ≤ 6.5e-8", worst, at)
	}
}
