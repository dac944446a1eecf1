// Package npmath holds the floating-point results of Python and numpy
// expressions that Go's math package does not reproduce bit for bit, for
// the metrics that must match their reference code exactly. Sums and means
// in numpy's pairwise order are in internal/pairwise.
package npmath

import (
	"math"
	"math/big"
	"sync"
)

// sigma is CIDEr-D's length-penalty width (σ = 6).
const sigma = 6.0

// CIDErLengthPenalty returns CIDEr-D's Gaussian length penalty for a
// difference of delta (pycocoevalcap cider_scorer.py and the StyleM scorer,
// which measure length in bigrams).
//
// Matches the reference implementations, which compute np.e**(-(δ²)/(2σ²)):
// Python's float power, i.e. the C library's pow(e, x), not exp(x). pow with
// the double nearest e is not exp: ln(e as a double) = 1 − 5.3e-17, enough to
// move results by an ulp. glibc's pow is correctly rounded except within
// 0.02 ulp of a tie, so the correctly rounded value of e_double^x, computed
// here in 256-bit arithmetic, matches it.
func CIDErLengthPenalty(delta int) float64 {
	if delta < 0 {
		delta = -delta
	}
	if delta < len(penaltyCache()) {
		return penaltyCache()[delta]
	}
	return PowE(-float64(delta*delta) / (2 * sigma * sigma))
}

// penaltyCache holds CIDErLengthPenalty for |δ| < 256, computed once: scoring
// calls it for every (caption, reference) pair.
var penaltyCache = sync.OnceValue(func() []float64 {
	t := make([]float64, 256)
	for d := range t {
		t[d] = PowE(-float64(d*d) / (2 * sigma * sigma))
	}
	return t
})

// PowE returns math.E**x correctly rounded, which is what Python's
// math.e ** x gives on glibc (its pow is correctly rounded but within 0.02
// ulp of a tie); Go's math.Pow(math.E, x) and math.Exp(x) each miss it by an
// ulp for some x. Any finite x works; the metrics call it with x ≤ 0.
func PowE(x float64) float64 {
	if x == 0 {
		return 1
	}
	if x < -800 {
		return 0 // below the smallest subnormal
	}
	const prec = 256
	f := func() *big.Float { return new(big.Float).SetPrec(prec) }
	// lnE = ln(math.E) = 1 + ln(1+u), u = math.E/e − 1, |u| ≈ 5e-17.
	e := bigExp(f().SetInt64(1), prec)
	u := f().Quo(f().SetFloat64(math.E), e)
	u.Sub(u, f().SetInt64(1))
	u2 := f().Mul(u, u)
	u3 := f().Mul(u2, u)
	lnE := f().SetInt64(1)
	lnE.Add(lnE, u)
	lnE.Sub(lnE, u2.Quo(u2, f().SetInt64(2)))
	lnE.Add(lnE, u3.Quo(u3, f().SetInt64(3)))
	y := f().Mul(lnE, f().SetFloat64(x))
	r, _ := bigExp(y, prec).Float64()
	return r
}

// bigExp returns exp(y) to about prec bits: y is scaled by 2^-k into
// [-1/2, 1/2], the Taylor series summed, and the result squared k times.
func bigExp(y *big.Float, prec uint) *big.Float {
	wp := prec + 64
	z := new(big.Float).SetPrec(wp).Set(y)
	k := 0
	for z.MantExp(nil) > -1 { // |z| ≥ 1/2
		z.SetMantExp(z, -1)
		k++
	}
	sum := new(big.Float).SetPrec(wp).SetInt64(1)
	term := new(big.Float).SetPrec(wp).SetInt64(1)
	eps := new(big.Float).SetPrec(wp).SetMantExp(big.NewFloat(1), -int(wp))
	for i := int64(1); i < 1000; i++ {
		term.Mul(term, z)
		term.Quo(term, new(big.Float).SetPrec(wp).SetInt64(i))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}
