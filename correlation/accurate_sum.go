package correlation

import "math"

// doubleDouble is an unevaluated sum hi + lo carrying about 106 bits, used
// to accumulate dot products and sums of squares without rounding error
// growing with n.
type doubleDouble struct{ hi, lo float64 }

// addProduct adds a·b exactly (TwoProduct via FMA, then TwoSum).
func (d *doubleDouble) addProduct(a, b float64) {
	p := a * b
	pErr := math.FMA(a, b, -p)
	s := d.hi + p
	bb := s - d.hi
	sErr := (d.hi - (s - bb)) + (p - bb)
	d.hi = s
	d.lo += sErr + pErr
}

// value rounds the accumulated sum to float64.
func (d doubleDouble) value() float64 { return d.hi + d.lo }

// dotAccurate returns Σ a[i]·b[i] accumulated in double-double.
func dotAccurate(a, b []float64) float64 {
	var d doubleDouble
	for i := range a {
		d.addProduct(a[i], b[i])
	}
	return d.value()
}

// norm2 returns the Euclidean norm of v without overflow or underflow: the
// vector is scaled by a power of two (exact) before squaring, the squares are
// accumulated in double-double and the square root is refined by one Newton
// step on the double-double sum. BLAS nrm2, which SciPy uses, is likewise
// accurate to about an ulp.
func norm2(v []float64) float64 {
	maxAbs := 0.0
	for _, x := range v {
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	if maxAbs == 0 {
		return 0
	}
	_, e := math.Frexp(maxAbs)
	var d doubleDouble
	for _, x := range v {
		s := math.Ldexp(x, -e)
		d.addProduct(s, s)
	}
	// Normalise hi/lo so that hi is the rounded sum.
	hi := d.hi + d.lo
	lo := d.lo - (hi - d.hi)
	r := math.Sqrt(hi)
	r += (math.FMA(-r, r, hi) + lo) / (2 * r)
	return math.Ldexp(r, e)
}
