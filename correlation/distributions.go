package correlation

import "math"

// pearsonTwoSidedP is the two-sided p-value of Pearson's r for n
// observations: 2·sf(|r|) of the beta distribution with a = b = n/2 − 1 on
// (−1, 1), the exact null distribution of r for normal data. Matches the
// reference implementation (scipy.stats.pearsonr), which evaluates the
// survival function at (|r|+1)/2 on the unit interval; by the symmetry of
// the beta distribution with equal shapes that is the regularized incomplete
// beta function at 1 − (|r|+1)/2, a subtraction that is exact there.
func pearsonTwoSidedP(r float64, n int) float64 {
	if math.IsNaN(r) { // only from overflow on values near ±MaxFloat64
		return math.NaN()
	}
	ab := float64(n)/2 - 1
	x := (math.Abs(r) + 1) / 2
	if x >= 1 {
		return 0
	}
	return clipP(2 * regIncBeta(ab, ab, 1-x, x))
}

// clipP limits a p-value to at most 1: near r = 0 the incomplete beta
// function can exceed ½ by a few ulps, which would give p > 1.
func clipP(p float64) float64 { return math.Min(p, 1) }

// studentTwoSidedP is the two-sided p-value 2·P(T ≤ −|t|) of Student's t
// with df degrees of freedom. Matches the reference implementation
// (scipy.special.stdtr, CDFLIB's cumt), which returns NaN for df ≤ 0 and
// evaluates the lower tail as ½·I(df/(df+t²); df/2, ½); so t = ±Inf gives 0
// and t = 0 gives 1.
func studentTwoSidedP(df, t float64) float64 {
	if math.IsNaN(t) || math.IsNaN(df) || df <= 0 {
		return math.NaN()
	}
	return clipP(2 * studentLowerTail(df, -math.Abs(t)))
}

// studentLowerTail is P(T ≤ t) for Student's t with df > 0 degrees of
// freedom, computed as CDFLIB's cumt does.
func studentLowerTail(df, t float64) float64 {
	tt := t * t
	dfptt := df + tt
	xx := df / dfptt
	yy := tt / dfptt
	var a float64 // I(xx; df/2, ½), with CDFLIB's cumbet end cases
	switch {
	case xx <= 0: // t = ±Inf (yy is NaN)
		a = 0
	case yy <= 0: // t = 0
		a = 1
	default:
		// From both xx and yy, as CDFLIB's bratio, so that a small yy
		// (t² ≪ df) keeps its precision.
		a = regIncBeta(0.5*df, 0.5, xx, yy)
	}
	if t <= 0 {
		return 0.5 * a
	}
	return 1 - 0.5*a
}

// normalTwoSidedP is the two-sided p-value 2·Φ(−|z|) of a standard normal
// deviate. Matches the reference implementation (scipy.special.ndtr, Cephes),
// which uses erfc in the tail and erf near the centre.
func normalTwoSidedP(z float64) float64 {
	if math.IsNaN(z) {
		return math.NaN()
	}
	return 2 * normalCDF(-math.Abs(z))
}

// normalCDF is Φ(a) in the Cephes ndtr arrangement.
func normalCDF(a float64) float64 {
	x := a * math.Sqrt2 / 2
	z := math.Abs(x)
	if z < math.Sqrt2/2 {
		return 0.5 + 0.5*math.Erf(x)
	}
	y := 0.5 * math.Erfc(z)
	if x > 0 {
		y = 1 - y
	}
	return y
}
