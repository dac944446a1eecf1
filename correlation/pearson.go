package correlation

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/internal/pairwise"
)

// Pearson returns Pearson's product-moment correlation r of x and y with the
// two-sided p-value from r's exact null distribution (a beta distribution on
// (−1, 1) with a = b = n/2 − 1), as scipy.stats.pearsonr.
//
// Matches the reference implementation, which rejects fewer than two
// observations (an error here), returns NaN for constant x or y, and for two
// observations returns r = ±1 with p = 1.
func Pearson(x, y []float64) (Result, error) {
	if err := checkPaired("Pearson", x, y); err != nil {
		return Result{}, err
	}
	n := len(x)
	if n < 2 {
		return Result{}, fmt.Errorf("correlation.Pearson: %d observations; need at least 2", n)
	}
	if isConstant(x) || isConstant(y) {
		return undefined, nil
	}
	if n == 2 {
		r := sign(x[1]-x[0]) * sign(y[1]-y[0])
		return Result{Statistic: r, P: 1}, nil
	}
	r := pearsonR(x, y)
	return Result{Statistic: r, P: pearsonTwoSidedP(r, n)}, nil
}

// PointBiserial returns the point-biserial correlation between a binary
// variable x and a continuous y, with its two-sided p-value. Matches the
// reference implementation (scipy.stats.pointbiserialr), which is Pearson's
// r with x coded as 0 and 1.
func PointBiserial(x []bool, y []float64) (Result, error) {
	xf := make([]float64, len(x))
	for i, b := range x {
		if b {
			xf[i] = 1
		}
	}
	res, err := Pearson(xf, y)
	if err != nil {
		return Result{}, fmt.Errorf("correlation.PointBiserial: %w", err)
	}
	return res, nil
}

// pearsonR computes r for n ≥ 3 non-constant finite samples in the order of
// scipy.stats.pearsonr: centre on numpy's pairwise mean, scale each centred
// vector to unit length, take the dot product and clip to [−1, 1]. SciPy
// gets the norms and the dot product from BLAS; here both are accumulated in
// double-double arithmetic, so r is (nearly) correctly rounded and agrees
// with SciPy's to a few ulps.
func pearsonR(x, y []float64) float64 {
	xm := centred(x)
	ym := centred(y)
	nx := norm2(xm)
	ny := norm2(ym)
	for i := range xm {
		xm[i] /= nx
		ym[i] /= ny
	}
	return clip1(dotAccurate(xm, ym))
}

// centred returns x − mean(x) with numpy's mean.
func centred(x []float64) []float64 {
	m := pairwise.Mean(x)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v - m
	}
	return out
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// clip1 limits a coefficient to [−1, 1]; SciPy does the same to remove
// rounding artefacts.
func clip1(r float64) float64 {
	return math.Max(math.Min(r, 1), -1)
}
