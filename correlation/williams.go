package correlation

import (
	"fmt"
	"math"
)

// WilliamsResult is the outcome of the Williams test of whether two
// dependent correlations sharing a variable differ.
type WilliamsResult struct {
	// R12 is the correlation of the human scores with metric A, R13 with
	// metric B, and R23 between the two metrics.
	R12, R13, R23 float64
	// T is Williams' statistic, Student-t distributed with DF = n − 3
	// degrees of freedom under H0: ρ12 = ρ13; positive when R12 > R13.
	T  float64
	DF int
	// P is the one-sided p-value of H1: ρ12 > ρ13 (metric A correlates
	// better with the humans), the form reported in the WMT metrics tasks.
	P float64
	// PTwoSided is the two-sided p-value of H1: ρ12 ≠ ρ13.
	PTwoSided float64
}

// Williams tests whether metricA's correlation with the human scores is
// higher than metricB's, accounting for the correlation between the two
// metrics (Williams 1959, as recommended by Steiger 1980 and used for
// metric comparison by Graham & Baldwin 2014 and the WMT metrics shared
// tasks). The three correlations are computed with coef (Pearson in WMT).
// When any of them is undefined the error is an *UndefinedError.
func Williams(human, metricA, metricB []float64, coef Coefficient) (WilliamsResult, error) {
	if coef == nil {
		return WilliamsResult{}, fmt.Errorf("correlation.Williams: nil coefficient function")
	}
	if len(metricA) != len(human) || len(metricB) != len(human) {
		return WilliamsResult{}, fmt.Errorf("correlation.Williams: %d human scores, %d for metric A, %d for metric B: %w",
			len(human), len(metricA), len(metricB), ErrLengthMismatch)
	}
	pairs := []struct {
		name string
		x, y []float64
	}{
		{"human and metric A", human, metricA},
		{"human and metric B", human, metricB},
		{"metric A and metric B", metricA, metricB},
	}
	var r [3]float64
	for i, p := range pairs {
		res, err := coef(p.x, p.y)
		if err != nil {
			return WilliamsResult{}, fmt.Errorf("correlation.Williams: %s: %w", p.name, err)
		}
		if !res.Defined() {
			return WilliamsResult{}, fmt.Errorf("correlation.Williams: %w", &UndefinedError{What: "the correlation of " + p.name, Why: "constant input"})
		}
		r[i] = res.Statistic
	}
	return WilliamsFromCorrelations(r[0], r[1], r[2], len(human))
}

// WilliamsFromCorrelations is the Williams test from the three correlations
// of n observations: r12 (human, metric A), r13 (human, metric B) and r23
// (metric A, metric B). With K = 1 − r12² − r13² − r23² + 2·r12·r13·r23,
//
//	t = (r12 − r13)·√((n−1)(1+r23)) / √(2K(n−1)/(n−3) + ((r12+r13)²/4)(1−r23)³)
//
// with n − 3 degrees of freedom. n must be at least 4 and the correlations
// must form a valid correlation matrix (K ≥ 0). T and the p-values are NaN
// when the metrics are perfectly correlated with equal correlations to the
// humans (0/0).
func WilliamsFromCorrelations(r12, r13, r23 float64, n int) (WilliamsResult, error) {
	for _, c := range []struct {
		name string
		v    float64
	}{{"r12", r12}, {"r13", r13}, {"r23", r23}} {
		if !(c.v >= -1 && c.v <= 1) {
			return WilliamsResult{}, fmt.Errorf("correlation.WilliamsFromCorrelations: %s = %v is not in [−1, 1]", c.name, c.v)
		}
	}
	if n < 4 {
		return WilliamsResult{}, fmt.Errorf("correlation.WilliamsFromCorrelations: n = %d; need at least 4 observations", n)
	}
	// Grouped so that swapping the metrics negates t exactly.
	k := 1 - (r12*r12 + r13*r13) - r23*r23 + 2*r12*r13*r23
	// Correlations computed from data give K ≥ 0 up to rounding.
	if k < -1e-12 {
		return WilliamsResult{}, fmt.Errorf("correlation.WilliamsFromCorrelations: r12 = %v, r13 = %v, r23 = %v do not form a valid correlation matrix (determinant %v < 0)", r12, r13, r23, k)
	}
	k = math.Max(k, 0)
	nm1 := float64(n - 1)
	rbar := (r12 + r13) / 2
	den := 2*k*nm1/float64(n-3) + rbar*rbar*math.Pow(1-r23, 3)
	t := (r12 - r13) * math.Sqrt(nm1*(1+r23)) / math.Sqrt(den)
	df := float64(n - 3)
	p := math.NaN()
	if !math.IsNaN(t) {
		p = studentLowerTail(df, -t)
	}
	return WilliamsResult{
		R12: r12, R13: r13, R23: r23,
		T: t, DF: n - 3,
		P:         p,
		PTwoSided: studentTwoSidedP(df, t),
	}, nil
}
