package ngram

import (
	"errors"
	"math"
	"math/big"
)

// pyNum is a number in NLTK's smoothing arithmetic with Python's types: an
// int, an exact fractions.Fraction or a float. Operations follow Python:
// int and Fraction arithmetic is exact, int/int is a correctly rounded
// float, and anything with a float is float arithmetic on float(operand).
type pyNum struct {
	kind pyKind
	r    *big.Rat // int and Fraction
	f    float64  // float
}

type pyKind uint8

const (
	pyInt pyKind = iota
	pyFraction
	pyFloatKind
)

func pyIntOf(v int64) pyNum     { return pyNum{kind: pyInt, r: new(big.Rat).SetInt64(v)} }
func pyFracOf(n, d int64) pyNum { return pyNum{kind: pyFraction, r: big.NewRat(n, d)} }
func pyFloatOf(f float64) pyNum { return pyNum{kind: pyFloatKind, f: f} }
func (a pyNum) exact() bool     { return a.kind != pyFloatKind }
func (a pyNum) isZero() bool    { return a.sign() == 0 }

// float is float(a): a Fraction converts correctly rounded, as Python's
// int/int true division does.
func (a pyNum) float() float64 {
	if a.exact() {
		f, _ := a.r.Float64()
		return f
	}
	return a.f
}

func (a pyNum) sign() int {
	if a.exact() {
		return a.r.Sign()
	}
	switch {
	case a.f > 0:
		return 1
	case a.f < 0:
		return -1
	}
	return 0
}

func pyAdd(a, b pyNum) pyNum {
	if a.exact() && b.exact() {
		return pyNum{kind: max(a.kind, b.kind), r: new(big.Rat).Add(a.r, b.r)}
	}
	return pyFloatOf(a.float() + b.float())
}

func pyMul(a, b pyNum) pyNum {
	if a.exact() && b.exact() {
		return pyNum{kind: max(a.kind, b.kind), r: new(big.Rat).Mul(a.r, b.r)}
	}
	return pyFloatOf(a.float() * b.float())
}

// pyDiv is a / b (true division); b is never zero in NLTK's smoothing.
func pyDiv(a, b pyNum) pyNum {
	switch {
	case a.kind == pyInt && b.kind == pyInt:
		q, _ := new(big.Rat).Quo(a.r, b.r).Float64()
		return pyFloatOf(q)
	case a.exact() && b.exact():
		return pyNum{kind: pyFraction, r: new(big.Rat).Quo(a.r, b.r)}
	}
	return pyFloatOf(a.float() / b.float())
}

// nltkSmooth applies opts.Smoothing to the precisions num[i]/den[i] as
// SmoothingFunction does, given the last item's references and hypothesis
// and the total hypothesis length (corpus_bleu's arguments).
func nltkSmooth(opts NLTKBLEUOptions, num, den []int64, refs [][]string, hyp []string, hypLen int) ([]pyNum, error) {
	p := make([]pyNum, len(num))
	for i := range p {
		p[i] = pyFracOf(num[i], den[i])
	}
	eps, alpha, k := opts.Epsilon, opts.Alpha, opts.K
	if eps == 0 {
		eps = 0.1
	}
	if alpha == 0 {
		alpha = 5
	}
	if k == 0 {
		k = 5
	}
	switch opts.Smoothing {
	case NLTKMethod0:
		// A zero precision becomes sys.float_info.min, whose log keeps the
		// score just above zero.
		for i := range p {
			if num[i] == 0 {
				p[i] = pyFloatOf(0x1p-1022)
			}
		}
	case NLTKMethod1:
		for i := range p {
			if num[i] == 0 {
				p[i] = pyFloatOf((float64(num[i]) + eps) / float64(den[i]))
			}
		}
	case NLTKMethod2:
		for i := 1; i < len(p); i++ {
			p[i] = pyFracOf(num[i]+1, den[i]+1)
		}
	case NLTKMethod3:
		inc := 1
		for i := range p {
			if num[i] == 0 {
				p[i] = pyFloatOf(1 / float64(int64(1)<<inc*den[i]))
				inc++
			}
		}
	case NLTKMethod4:
		nltkMethod4(p, num, den, hypLen, k)
	case NLTKMethod5:
		nltkMethod5(p, refs, hyp)
	case NLTKMethod6:
		if len(p) < 3 {
			return nil, errors.New("smoothing method6 needs weights of three or more orders (NLTK raises IndexError)")
		}
		if num[2] == 0 {
			return nil, errors.New("smoothing method6 needs a trigram precision above zero (NLTK raises AssertionError)")
		}
		for i := 2; i < len(p); i++ {
			pi0 := pyIntOf(0)
			if !p[i-2].isZero() {
				pi0 = pyDiv(pyMul(p[i-1], p[i-1]), p[i-2])
			}
			// l is the number of (i+1)-grams of the last hypothesis only.
			l := int64(max(0, len(hyp)-i))
			top := pyAdd(pyIntOf(num[i]), pyMul(pyIntOf(int64(alpha)), pi0))
			p[i] = pyDiv(top, pyIntOf(l+int64(alpha)))
		}
	case NLTKMethod7:
		nltkMethod4(p, num, den, hypLen, k)
		nltkMethod5(p, refs, hyp)
	}
	return p, nil
}

// nltkMethod4 is SmoothingFunction.method4 with hyp_len the corpus's total
// hypothesis length.
func nltkMethod4(p []pyNum, num, den []int64, hypLen, k int) {
	inc := 1
	for i := range p {
		if num[i] == 0 && hypLen > 1 {
			numerator := 1 / (float64(int64(1)<<inc*int64(k)) / math.Log(float64(hypLen)))
			p[i] = pyFloatOf(numerator / float64(den[i]))
			inc++
		}
	}
}

// nltkMethod5 is SmoothingFunction.method5: each precision becomes the mean
// of the previous smoothed one (p1 + 1 before the first), itself and the
// next original one, the 5-gram precision of the last item after the last
// order whatever the number of orders.
func nltkMethod5(p []pyNum, refs [][]string, hyp []string) {
	a, b := nltkModifiedPrecision(refs, hyp, 5)
	next := append(append([]pyNum(nil), p...), pyFracOf(a, b))
	prev := pyAdd(p[0], pyIntOf(1))
	three := pyIntOf(3)
	for i := range p {
		p[i] = pyDiv(pyAdd(pyAdd(prev, p[i]), next[i+1]), three)
		prev = p[i]
	}
}

// pyFsum is Python's math.fsum: the correctly rounded sum of xs (Shewchuk's
// exact partial sums, then the half-way correction of msum). The inputs
// here are finite.
func pyFsum(xs []float64) float64 {
	var partials []float64
	for _, x := range xs {
		i := 0
		for _, y := range partials {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			x = hi
		}
		partials = partials[:i]
		if x != 0 {
			partials = append(partials, x)
		}
	}
	n := len(partials)
	if n == 0 {
		return 0
	}
	n--
	hi := partials[n]
	var lo float64
	for n > 0 {
		x := hi
		n--
		y := partials[n]
		hi = x + y
		yr := hi - x
		lo = y - yr
		if lo != 0 {
			break
		}
	}
	// Round half-even correctly when the rest of the partials push the
	// rounding the other way.
	if n > 0 && ((lo < 0 && partials[n-1] < 0) || (lo > 0 && partials[n-1] > 0)) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}
