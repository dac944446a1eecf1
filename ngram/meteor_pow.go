package ngram

import "math"

// meteorPow returns x^beta as the reference's Math.pow does: for beta 0.2
// (the rank task) correctly rounded, see meteorPowBeta; for beta 1.0 x
// itself; otherwise math.Pow, within an ulp or so of Java's.
func meteorPow(x, beta float64) float64 {
	switch beta {
	case 0.2:
		return meteorPowBeta(x)
	case 1:
		return x
	}
	return math.Pow(x, beta)
}

// meteorPowBeta returns x^0.2 (Meteor's rank beta) correctly rounded. The
// reference's Math.pow (HotSpot's intrinsic) is correctly rounded on all but
// near-halfway cases, while Go's math.Pow is off by one unit in the last place
// for about one fragmentation value in eight, so the power is refined here in
// double-double arithmetic.
//
// The double 0.2 is (1 + 2^-54)/5, so x^0.2 = (x·x^(2^-54))^(1/5) =
// (x·(1 + 2^-54·ln x))^(1/5) to well below double precision; one Newton step
// for the fifth root, from math.Pow's estimate, gives the result.
func meteorPowBeta(x float64) float64 {
	if !(x >= 0x1p-1000 && x <= 0x1p1000) {
		if x == 0 {
			return 0
		}
		return math.Pow(x, 0.2)
	}
	z := math.Pow(x, 0.2)
	tLo := x * (0x1p-54 * math.Log(x)) // x·x^(2^-54) = x + tLo
	z2h, z2l := meteorTwoProd(z, z)
	z4h, z4l := meteorDDMul(z2h, z2l, z2h, z2l)
	z5h, z5l := meteorDDMul(z4h, z4l, z, 0)
	r := (z5h - x) + (z5l - tLo) // z^5 - t; z5h - x is exact (Sterbenz)
	return z - r/(5*z4h)
}

// meteorTwoProd returns a*b as an unevaluated sum hi+lo.
func meteorTwoProd(a, b float64) (hi, lo float64) {
	hi = a * b
	return hi, math.FMA(a, b, -hi)
}

// meteorDDMul multiplies two double-double numbers.
func meteorDDMul(ah, al, bh, bl float64) (hi, lo float64) {
	p, e := meteorTwoProd(ah, bh)
	e += float64(ah*bl) + float64(al*bh)
	hi = p + e
	return hi, e - (hi - p)
}
