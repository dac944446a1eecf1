package correlation

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// KendallVariant selects which Kendall's τ is computed.
type KendallVariant int

const (
	// TauB is Kendall's τ-b, which corrects for ties in either variable
	// (SciPy's default).
	TauB KendallVariant = iota
	// TauC is Stuart's τ-c, suited to rectangular contingency tables such as
	// Likert ratings against a metric with another number of levels.
	TauC
)

// KendallMethod selects how Kendall's p-value is computed.
type KendallMethod int

const (
	// KendallAuto uses the exact null distribution when neither variable has
	// ties and either n ≤ 33 or at most one pair is discordant (or at most
	// one concordant), and the tie-corrected normal approximation otherwise,
	// as SciPy's method='auto'.
	KendallAuto KendallMethod = iota
	// KendallExact uses the exact null distribution; it is an error when
	// either variable has ties, as in SciPy.
	KendallExact
	// KendallAsymptotic uses the normal approximation with the
	// tie-corrected variance.
	KendallAsymptotic
)

// maxExactKendallN bounds KendallExact: the exact distribution costs
// O(n³) time and O(n²) memory beyond the closed forms, so larger samples
// would stall rather than answer.
const maxExactKendallN = 1000

// KendallOptions configures Kendall. The zero value is SciPy's default:
// τ-b with method 'auto'.
type KendallOptions struct {
	// Variant is TauB (default) or TauC.
	Variant KendallVariant
	// Method is KendallAuto (default), KendallExact or KendallAsymptotic.
	Method KendallMethod
}

// ErrTiesExact is returned (wrapped) when the exact Kendall p-value is
// requested for data with ties.
var ErrTiesExact = errors.New("ties found; the exact Kendall p-value assumes none")

// KendallTauB is Kendall(x, y, KendallOptions{}): τ-b with SciPy's default
// p-value method.
func KendallTauB(x, y []float64) (Result, error) {
	return Kendall(x, y, KendallOptions{})
}

// KendallTauC is Kendall(x, y, KendallOptions{Variant: TauC}): Stuart's τ-c
// with SciPy's default p-value method. Its p-value equals τ-b's.
func KendallTauC(x, y []float64) (Result, error) {
	return Kendall(x, y, KendallOptions{Variant: TauC})
}

// Kendall returns Kendall's rank correlation τ of x and y and its two-sided
// p-value, as scipy.stats.kendalltau(x, y, variant=…, method=…). Discordant
// pairs are counted in O(n log n).
//
// Matches the reference implementation, which returns NaN for empty input
// and when every pair is tied in x or in y (so for constant input and for a
// single observation), and whose p-value depends only on the numbers of
// concordant and discordant pairs, so τ-b and τ-c share it.
func Kendall(x, y []float64, opts KendallOptions) (Result, error) {
	if err := checkPaired("Kendall", x, y); err != nil {
		return Result{}, err
	}
	if opts.Variant != TauB && opts.Variant != TauC {
		return Result{}, fmt.Errorf("correlation.Kendall: unknown variant %d", opts.Variant)
	}
	if opts.Method < KendallAuto || opts.Method > KendallAsymptotic {
		return Result{}, fmt.Errorf("correlation.Kendall: unknown method %d", opts.Method)
	}
	n := len(x)
	if n == 0 {
		return undefined, nil
	}
	c := countPairs(x, y)
	tot := int64(n) * int64(n-1) / 2
	if c.xTies == tot || c.yTies == tot {
		return undefined, nil
	}
	// tot = con + dis + (xTies − jointTies) + (yTies − jointTies) + jointTies.
	conMinusDis := tot - c.xTies - c.yTies + c.jointTies - 2*c.discordant

	var tau float64
	if opts.Variant == TauB {
		tau = float64(conMinusDis) / math.Sqrt(float64(tot-c.xTies)) / math.Sqrt(float64(tot-c.yTies))
	} else {
		tau = float64(2*conMinusDis) / tauCDenominator(n, min(c.xClasses, c.yClasses))
	}
	tau = clip1(tau)

	noTies := c.xTies == 0 && c.yTies == 0
	method := opts.Method
	if method == KendallExact && !noTies {
		return Result{}, fmt.Errorf("correlation.Kendall: %d pairs tied in x, %d in y: %w", c.xTies, c.yTies, ErrTiesExact)
	}
	if method == KendallAuto {
		method = KendallAsymptotic
		if noTies && (n <= 33 || min(c.discordant, tot-c.discordant) <= 1) {
			method = KendallExact
		}
	}
	var p float64
	if method == KendallExact {
		var err error
		if p, err = kendallExactP(n, tot-c.discordant); err != nil {
			return Result{}, err
		}
	} else {
		p = normalTwoSidedP(float64(conMinusDis) / math.Sqrt(kendallNullVariance(n, c)))
	}
	return Result{Statistic: tau, P: p}, nil
}

// tauCDenominator is n²(m−1)/m for m the smaller number of distinct values,
// correctly rounded as Python's integer true division in SciPy.
func tauCDenominator(n, m int) float64 {
	num := new(big.Int).Mul(big.NewInt(int64(n)), big.NewInt(int64(n)))
	num.Mul(num, big.NewInt(int64(m-1)))
	f, _ := new(big.Rat).SetFrac(num, big.NewInt(int64(m))).Float64()
	return f
}

// kendallNullVariance is the variance of con − dis under independence with
// the tie corrections of Kendall (1970), in SciPy's order of operations.
// SciPy forms 2·xTies·yTies in int64, which wraps around for heavily tied
// samples beyond n ≈ 10⁵; the product is taken in float64 here, so such
// inputs get the correct variance where SciPy's would be wrong.
func kendallNullVariance(n int, c pairCounts) float64 {
	size := float64(n)
	m := size * (size - 1)
	return (m*(2*size+5)-c.x1-c.y1)/18 +
		(2*float64(c.xTies)*float64(c.yTies))/m +
		c.x0*c.y0/(9*m*(size-2))
}

// pairCounts holds what Kendall's τ and its variance need.
type pairCounts struct {
	discordant int64 // pairs ordered oppositely by x and y (strictly)
	jointTies  int64 // pairs tied in both x and y
	xTies      int64 // pairs tied in x: Σ t(t−1)/2 over tie groups
	yTies      int64
	x0, y0     float64 // Σ t(t−1)(t−2)
	x1, y1     float64 // Σ t(t−1)(2t+5)
	xClasses   int     // number of distinct values
	yClasses   int
}

// countPairs counts discordant and tied pairs in O(n log n): y is replaced
// by dense ranks, the observations are sorted by (x, y rank), and a Fenwick
// tree over y ranks counts, for each x group, the earlier observations
// (smaller x) with a larger y. This is the counting of SciPy's _kendall_dis.
func countPairs(x, y []float64) pairCounts {
	n := len(x)
	var c pairCounts

	// Dense ranks of y, 1-based.
	byY := sortedOrder(y)
	yRank := make([]int32, n)
	rank := int32(0)
	for k, i := range byY {
		if k == 0 || y[i] != y[byY[k-1]] {
			rank++
		}
		yRank[i] = rank
	}
	c.yClasses = int(rank)
	c.yTies, c.y0, c.y1 = tieStats(byY, func(a, b int32) bool { return y[a] == y[b] })

	// Order by x, then by y rank.
	type key struct {
		x     float64
		yRank int32
		i     int32
	}
	keys := make([]key, n)
	for i := range keys {
		keys[i] = key{x[i], yRank[i], int32(i)}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if d := compareFinite(a.x, b.x); d != 0 {
			return d
		}
		return int(a.yRank - b.yRank)
	})
	order := make([]int32, n)
	for k, kk := range keys {
		order[k] = kk.i
	}
	sameX := func(a, b int32) bool { return x[a] == x[b] }
	c.xTies, c.x0, c.x1 = tieStats(order, sameX)
	c.jointTies, _, _ = tieStats(order, func(a, b int32) bool { return x[a] == x[b] && yRank[a] == yRank[b] })

	tree := make([]int64, rank+1) // Fenwick tree of counts per y rank
	for start := 0; start < n; {
		end := start + 1
		for end < n && sameX(order[end], order[start]) {
			end++
		}
		c.xClasses++
		// Observations before start have strictly smaller x; those among
		// them with y rank above r are discordant with this one.
		for _, i := range order[start:end] {
			notAbove := int64(0)
			for r := yRank[i]; r > 0; r &= r - 1 {
				notAbove += tree[r]
			}
			c.discordant += int64(start) - notAbove
		}
		for _, i := range order[start:end] {
			for r := yRank[i]; r <= rank; r += r & -r {
				tree[r]++
			}
		}
		start = end
	}
	return c
}

// tieStats scans sorted indices for runs of equal values and returns
// Σ t(t−1)/2, Σ t(t−1)(t−2) and Σ t(t−1)(2t+5) over the run lengths t.
func tieStats(order []int32, equal func(a, b int32) bool) (pairs int64, s0, s1 float64) {
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && equal(order[end], order[start]) {
			end++
		}
		if t := int64(end - start); t > 1 {
			pairs += t * (t - 1) / 2
			ft := float64(t)
			s0 += ft * (ft - 1) * (ft - 2)
			s1 += ft * (ft - 1) * (2*ft + 5)
		}
		start = end
	}
	return pairs, s0, s1
}
