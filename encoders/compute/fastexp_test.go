package compute

import (
	"math"
	"testing"
)

// ExpNonPositive must stay within 1e-8 relative of math.Exp on [-708, 0]
// and give 0 below.
func TestExpNonPositive(t *testing.T) {
	worst, at := 0.0, 0.0
	for x := -708.0; x <= 0; x += 1.0 / 1024 {
		want := math.Exp(x)
		if d := math.Abs(ExpNonPositive(x)-want) / want; d > worst {
			worst, at = d, x
		}
	}
	if worst > 1e-8 {
		t.Fatalf("relative error %.3g at x = %g, want ≤ 1e-8", worst, at)
	}
	for _, x := range []float64{-709, -1e10, -math.MaxFloat32, math.Inf(-1)} {
		if got := ExpNonPositive(x); got != 0 {
			t.Errorf("ExpNonPositive(%g) = %g, want 0", x, got)
		}
	}
	if ExpNonPositive(0) != 1 {
		t.Errorf("ExpNonPositive(0) = %g, want 1", ExpNonPositive(0))
	}
}
