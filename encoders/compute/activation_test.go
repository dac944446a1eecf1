package compute

import (
	"testing"
)

// Each activation must give the same values on the parallel path (long
// input) as element by element.
func TestActivationsParallelMatchesSerial(t *testing.T) {
	n := 1<<15 + 3
	for name, act := range map[string]Activation{"gelu": GELU, "gelu_new": GELUTanh, "quick_gelu": QuickGELU} {
		long := make([]float32, n)
		for i := range long {
			long[i] = float32(i%997)/100 - 5
		}
		want := make([]float32, n)
		for i, v := range long {
			one := []float32{v}
			act.Apply(one)
			want[i] = one[0]
		}
		act.Apply(long)
		for i := range long {
			if long[i] != want[i] {
				t.Fatalf("%s: element %d parallel %g, serial %g", name, i, long[i], want[i])
			}
		}
	}
}
