package correlation

import (
	"fmt"
	"math/big"

	"github.com/storyeval/storyeval/internal/pairwise"
)

// kendallExactP is the exact two-sided p-value of Kendall's τ for n
// observations without ties and c concordant pairs, from the distribution of
// the number of inversions of a random permutation (Kendall 1970). Matches
// the reference implementation (scipy.stats._mstats_basic._kendall_p_exact
// in SciPy 1.10) step for step: closed forms for c ≤ 1 (0 beyond n = 170,
// where n! overflows), p = 1 when c is the centre, otherwise the
// inversion-count recurrence by cumulative sums with float64 counts divided
// by n! at the end (for n ≤ 170) or scaled by 1/j at every step (beyond).
func kendallExactP(n int, c int64) (float64, error) {
	tot := int64(n) * int64(n-1) / 2
	c = min(c, tot-c)
	switch {
	case n <= 2:
		return 1, nil
	case c == 0:
		if n < 171 {
			return 2.0 / factorial(n), nil
		}
		return 0, nil
	case c == 1:
		if n < 172 {
			return 2.0 / factorial(n-1), nil
		}
		return 0, nil
	case 4*c == int64(n)*int64(n-1):
		return 1, nil
	}
	if n > maxExactKendallN {
		return 0, fmt.Errorf("correlation.Kendall: exact p-value for n = %d exceeds the limit of %d (cost grows as n³); use KendallAsymptotic", n, maxExactKendallN)
	}
	// counts[k] holds the number (n < 171) or the fraction (scaled) of
	// permutations of j elements with k inversions, for k ≤ c.
	counts := make([]float64, c+1)
	counts[0], counts[1] = 1, 1
	scaled := n >= 171
	for j := 3; j <= n; j++ {
		sum := 0.0
		for k := range counts {
			sum += counts[k]
			counts[k] = sum
		}
		if scaled {
			fj := float64(j)
			for k := range counts {
				counts[k] /= fj
			}
		}
		// Subtract the counts shifted by j (from the top down, so each
		// subtrahend is still the cumulative sum, as numpy's buffered
		// in-place new[j:] -= new[:c+1-j]).
		for k := c; k >= int64(j); k-- {
			counts[k] -= counts[k-int64(j)]
		}
	}
	var p float64
	if scaled {
		p = pairwise.Sum(counts)
	} else {
		p = 2.0 * pairwise.Sum(counts) / factorial(n)
	}
	return min(max(p, 0), 1), nil
}

// factorial returns n! correctly rounded to float64, as Python's conversion
// of the exact integer math.factorial(n) in SciPy's code.
func factorial(n int) float64 {
	f := new(big.Int).MulRange(1, int64(n))
	v, _ := new(big.Float).SetInt(f).Float64()
	return v
}
