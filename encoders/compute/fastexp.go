package compute

import "math"

// ExpNonPositive returns e^x for x ≤ 0 to within 1e-8 relative (float32
// needs 6e-8), about three times faster than math.Exp: softmax evaluates
// it for every attention score. x = k·ln2 + r with |r| ≤ ln2/2, e^r from
// its degree-7 Taylor polynomial (truncation error r⁸/8! ≤ 5.5e-9), and
// 2^k put into the exponent bits. Below −708 the result is 0, as a float32
// softmax weight of e^−708 would be anyway.
func ExpNonPositive(x float64) float64 {
	if x < -708 {
		return 0
	}
	const (
		log2e = 1.4426950408889634
		ln2hi = 6.93147180369123816490e-01 // ln 2 split in two parts, as math.Exp
		ln2lo = 1.90821492927058770002e-10
	)
	k := math.Floor(x*log2e + 0.5)
	r := (x - k*ln2hi) - k*ln2lo
	p := 1.0 / 5040
	p = p*r + 1.0/720
	p = p*r + 1.0/120
	p = p*r + 1.0/24
	p = p*r + 1.0/6
	p = p*r + 0.5
	p = p*r + 1
	p = p*r + 1
	return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
}
