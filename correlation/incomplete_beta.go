package correlation

import "math"

// regIncBeta returns the regularized incomplete beta function I_x(a, b) for
// a, b > 0 given both x and y = 1 − x, as CDFLIB's bratio (behind SciPy's
// Student t) and Boost's ibeta (behind SciPy's beta distribution) take
// them, so that a small 1 − x keeps its relative precision. It evaluates
// the continued fraction of DLMF 8.17.22 on whichever side of the mean
// converges, with the prefactor x^a·y^b/B(a, b) formed from Stirling
// corrections and log1p−x terms (no lgamma differences), which keeps about
// 1e-14 relative accuracy for large a and b where Cephes' incbet, working
// through lgamma(a)+lgamma(b)−lgamma(a+b), loses digits in proportion to
// a + b.
func regIncBeta(a, b, x, y float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y) || !(a > 0) || !(b > 0):
		return math.NaN()
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	if x > (a+1)/(a+b+2) {
		return 1 - betaFraction(b, a, y, x)
	}
	return betaFraction(a, b, x, y)
}

// betaFraction is x^a·y^b/(a·B(a, b)) times the continued fraction
// 1/(1+ d1/(1+ d2/(1+ …))) of DLMF 8.17.22, evaluated by the modified
// Lentz method; it converges quickly for x < (a+1)/(a+b+2).
func betaFraction(a, b, x, y float64) float64 {
	prefactor := math.Exp(logBetaPowerTerms(a, b, x, y)) / a
	if prefactor == 0 {
		return 0
	}
	const tiny = 1e-300
	const maxIter = 100_000
	f, c, d := 1.0, 1.0, 0.0 // f = 1 + d1/(1 + d2/(…)), the tail of the fraction
	for i := 1; i <= maxIter; i++ {
		m := float64(i / 2)
		var coef float64
		if i%2 == 1 {
			coef = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		} else {
			coef = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		}
		d = 1 + coef*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + coef/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := c * d
		f *= delta
		if math.Abs(delta-1) < 1e-16 {
			break
		}
	}
	return prefactor / f
}

// logBetaPowerTerms is ln(x^a·y^b/B(a, b)). With h = ab/(a+b),
// d = x·b − y·a, u = d/a and v = −d/b (so that a·u + b·v = 0), Stirling's
// formula with δ(z) = lnΓ(z) − ((z−½)ln z − z + ½ln 2π) gives
//
//	a·ln(1+u) + b·ln(1+v) + ½ln(h/2π) − δ(a) − δ(b) + δ(a+b),
//
// and near the mean the first two terms are summed as a·(ln(1+u)−u) +
// b·(ln(1+v)−v), avoiding the cancellation of a·u against b·v.
func logBetaPowerTerms(a, b, x, y float64) float64 {
	d := diffOfProducts(x, b, y, a)
	u, v := d/a, -d/b
	var terms float64
	if math.Abs(u) <= 0.5 && math.Abs(v) <= 0.5 {
		terms = a*log1pmx(u) + b*log1pmx(v)
	} else {
		terms = a*logOnePlus(u, x, (a+b)/a) + b*logOnePlus(v, y, (a+b)/b)
	}
	h := a * b / (a + b)
	return terms + 0.5*math.Log(h/(2*math.Pi)) - stirlingCorrection(a) - stirlingCorrection(b) + stirlingCorrection(a+b)
}

// logOnePlus is ln(1+t) where 1+t = w·scale; far from t = 0 it uses the
// product form, which keeps the precision of a small w.
func logOnePlus(t, w, scale float64) float64 {
	if math.Abs(t) <= 0.5 {
		return math.Log1p(t)
	}
	return math.Log(w) + math.Log(scale)
}

// diffOfProducts returns p·q − r·s with one rounding error relative to the
// result (Kahan's algorithm with FMA), so that d is accurate even when the
// two products nearly cancel.
func diffOfProducts(p, q, r, s float64) float64 {
	rs := r * s
	err := math.FMA(-r, s, rs) // rs − r·s exactly
	return math.FMA(p, q, -rs) + err
}

// log1pmx is ln(1+t) − t for |t| ≤ ½, by its power series where the
// direct form would cancel.
func log1pmx(t float64) float64 {
	if math.Abs(t) > 0.25 {
		return math.Log1p(t) - t
	}
	// ln(1+t) − t = Σ_{k≥2} (−1)^{k+1} t^k / k.
	sum := 0.0
	pow := t
	for k := 2; k < 200; k++ {
		pow *= -t
		term := pow / float64(k)
		sum += term
		if math.Abs(term) <= 1e-17*math.Abs(sum) {
			break
		}
	}
	return sum
}

// stirlingCorrection is δ(z) = lnΓ(z) − ((z−½)ln z − z + ½ln 2π) for z > 0:
// its asymptotic series for z ≥ 10, the definition below that (where the
// terms are small enough not to cancel).
func stirlingCorrection(z float64) float64 {
	if z < 10 {
		lg, _ := math.Lgamma(z)
		return lg - ((z-0.5)*math.Log(z) - z + 0.5*math.Log(2*math.Pi))
	}
	// 1/(12z) − 1/(360z³) + 1/(1260z⁵) − 1/(1680z⁷) + 1/(1188z⁹) − 691/(360360z¹¹)
	z2 := 1 / (z * z)
	return (1.0/12 + z2*(-1.0/360+z2*(1.0/1260+z2*(-1.0/1680+z2*(1.0/1188+z2*(-691.0/360360)))))) / z
}
