package correlation

import (
	"errors"
	"math"
	"testing"
)

func TestInputValidation(t *testing.T) {
	fns := map[string]Coefficient{
		"Pearson": Pearson, "Spearman": Spearman, "KendallTauB": KendallTauB, "KendallTauC": KendallTauC,
	}
	bad := []struct {
		name string
		x, y []float64
		want error
	}{
		{"length mismatch", []float64{1, 2, 3}, []float64{1, 2}, ErrLengthMismatch},
		{"NaN in x", []float64{1, math.NaN(), 3}, []float64{1, 2, 3}, ErrNotFinite},
		{"+Inf in y", []float64{1, 2, 3}, []float64{1, math.Inf(1), 3}, ErrNotFinite},
		{"-Inf in x", []float64{math.Inf(-1), 2, 3}, []float64{1, 2, 3}, ErrNotFinite},
	}
	for name, fn := range fns {
		for _, b := range bad {
			if _, err := fn(b.x, b.y); !errors.Is(err, b.want) {
				t.Errorf("%s, %s: err = %v, want %v", name, b.name, err, b.want)
			}
		}
	}
	if _, err := PointBiserial([]bool{true, false}, []float64{1}); !errors.Is(err, ErrLengthMismatch) {
		t.Errorf("PointBiserial length mismatch: err = %v", err)
	}
}

// TestShortInputs pins SciPy 1.10's behaviour on 0 and 1 observations:
// pearsonr raises, spearmanr and kendalltau return NaN.
func TestShortInputs(t *testing.T) {
	for _, n := range []int{0, 1} {
		x := make([]float64, n)
		if _, err := Pearson(x, x); err == nil {
			t.Errorf("Pearson with %d observations: no error", n)
		}
		for name, fn := range map[string]Coefficient{"Spearman": Spearman, "KendallTauB": KendallTauB, "KendallTauC": KendallTauC} {
			res, err := fn(x, x)
			if err != nil || res.Defined() || !math.IsNaN(res.P) {
				t.Errorf("%s with %d observations: %+v, %v; want NaN, nil", name, n, res, err)
			}
		}
	}
}

// TestConstantInput: SciPy returns NaN for constant x as well as y (the
// fixture covers constant y only).
func TestConstantInput(t *testing.T) {
	x := []float64{2, 2, 2, 2}
	y := []float64{1, 3, 2, 4}
	for name, fn := range map[string]Coefficient{"Pearson": Pearson, "Spearman": Spearman, "KendallTauB": KendallTauB, "KendallTauC": KendallTauC} {
		res, err := fn(x, y)
		if err != nil || res.Defined() || !math.IsNaN(res.P) {
			t.Errorf("%s: %+v, %v; want NaN, nil", name, res, err)
		}
	}
	res, err := PointBiserial([]bool{true, true, true}, []float64{1, 2, 3})
	if err != nil || res.Defined() {
		t.Errorf("PointBiserial with one group: %+v, %v; want NaN", res, err)
	}
}

func TestAverageRanks(t *testing.T) {
	// scipy.stats.rankdata([3, 1, 4, 1, 5, 9, 2, 6, 5]) (average method).
	got := averageRanks([]float64{3, 1, 4, 1, 5, 9, 2, 6, 5})
	want := []float64{4, 1.5, 5, 1.5, 6.5, 9, 3, 8, 6.5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks %v, want %v", got, want)
		}
	}
}
