package correlation

import (
	"errors"
	"fmt"
	"math"
)

// Result is a correlation coefficient with its two-sided p-value.
type Result struct {
	// Statistic is the coefficient: Pearson's r, Spearman's ρ or Kendall's τ.
	// It is NaN exactly where SciPy returns NaN (for example constant input).
	Statistic float64
	// P is the two-sided p-value of the null hypothesis of no association.
	// It is NaN where SciPy's is (undefined coefficient, or Spearman with
	// two observations).
	P float64
}

// Defined reports whether the coefficient is defined, that is not NaN.
func (r Result) Defined() bool { return !math.IsNaN(r.Statistic) }

// undefined is the result SciPy returns for constant or too-short input.
var undefined = Result{Statistic: math.NaN(), P: math.NaN()}

// ErrLengthMismatch is returned (wrapped) when x and y differ in length.
var ErrLengthMismatch = errors.New("x and y differ in length")

// ErrNotFinite is returned (wrapped) when an input holds NaN or ±Inf.
// SciPy propagates NaN instead; rejecting it makes a missing judgement
// visible rather than silently turning every statistic into NaN.
var ErrNotFinite = errors.New("value is not finite")

// checkPaired validates a pair of samples: equal lengths and finite values.
// fn names the calling function for the error message.
func checkPaired(fn string, x, y []float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("correlation.%s: x has %d values and y has %d: %w", fn, len(x), len(y), ErrLengthMismatch)
	}
	if len(x) > math.MaxInt32 {
		// Ranks and sort orders are held as int32.
		return fmt.Errorf("correlation.%s: %d observations exceed the limit of %d", fn, len(x), math.MaxInt32)
	}
	if err := checkFinite(fn, "x", x); err != nil {
		return err
	}
	return checkFinite(fn, "y", y)
}

func checkFinite(fn, name string, xs []float64) error {
	for i, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("correlation.%s: %s[%d] is %v: %w", fn, name, i, v, ErrNotFinite)
		}
	}
	return nil
}

// isConstant reports whether all values equal the first, the test SciPy uses
// ((x == x[0]).all()) before declaring a coefficient undefined.
func isConstant(xs []float64) bool {
	for _, v := range xs {
		if v != xs[0] {
			return false
		}
	}
	return true
}
