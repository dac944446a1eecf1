package correlation

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/storyeval/storyeval/internal/parallel"
)

// DefaultRounds is the number of random rounds of PairedRandomization when
// RandomizationOptions.Rounds is zero.
const DefaultRounds = 9999

// maxExactItems bounds the exact test: 2^n sign patterns are enumerated.
const maxExactItems = 24

// RandomizationOptions configures PairedRandomization. The zero value runs
// the exact test when there are at most 20 items and 9,999 seeded random
// rounds otherwise.
type RandomizationOptions struct {
	// Rounds is the number of random rounds (0: DefaultRounds).
	Rounds int
	// Exact forces the exact test, enumerating all 2^n swaps (at most 24
	// items); by default it is used for n ≤ 20.
	Exact bool
	// Seed selects the random swaps: round r draws from
	// rand.New(rand.NewPCG(Seed, r)), so results do not depend on the number
	// of goroutines.
	Seed uint64
}

// RandomizationResult is the outcome of a paired approximate randomization
// test.
type RandomizationResult struct {
	// MeanDifference is mean(a) − mean(b) on the data.
	MeanDifference float64
	// P is the two-sided p-value: the share of swap patterns whose mean
	// difference is at least as large in magnitude as the observed one —
	// exactly (count/2^n) for the exact test, (count+1)/(rounds+1) for the
	// random one, which keeps it a valid p-value (Noreen, 1989).
	P float64
	// Rounds is the number of swap patterns evaluated (2^n when Exact).
	Rounds int
	// Exact reports whether every pattern was enumerated.
	Exact bool
}

// PairedRandomization tests whether two systems scored on the same items
// differ: under the null hypothesis the two scores of an item are
// exchangeable, so each round swaps a[i] and b[i] for a random subset of
// items (equivalently flips the sign of d[i] = a[i] − b[i]) and compares
// |mean(d)| with the observed value. This is the approximate randomization
// test of Riezler and Maxwell (2005) that MT and captioning papers use for
// system comparisons. a and b must have the same non-zero length and hold
// no NaN.
func PairedRandomization(a, b []float64, opts RandomizationOptions) (RandomizationResult, error) {
	if len(a) != len(b) {
		return RandomizationResult{}, fmt.Errorf("correlation.PairedRandomization: %d and %d scores; the systems must be scored on the same items", len(a), len(b))
	}
	n := len(a)
	if n == 0 {
		return RandomizationResult{}, fmt.Errorf("correlation.PairedRandomization: no items")
	}
	d := make([]float64, n)
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) || math.IsInf(a[i], 0) || math.IsInf(b[i], 0) {
			return RandomizationResult{}, fmt.Errorf("correlation.PairedRandomization: item %d has score %v vs %v", i, a[i], b[i])
		}
		d[i] = a[i] - b[i]
	}
	if opts.Rounds == 0 {
		opts.Rounds = DefaultRounds
	}
	if opts.Rounds < 0 || opts.Rounds > maxResamples {
		return RandomizationResult{}, fmt.Errorf("correlation.PairedRandomization: %d rounds; need 1 to %d", opts.Rounds, maxResamples)
	}
	exact := opts.Exact || n <= 20
	if exact && n > maxExactItems {
		return RandomizationResult{}, fmt.Errorf("correlation.PairedRandomization: the exact test enumerates 2^n patterns; %d items is more than %d", n, maxExactItems)
	}
	observed := math.Abs(sum(d))
	// Sums that differ from the observed one by rounding alone count as
	// ties: flipping signs reorders the additions.
	tol := 1e-12 * (absSum(d) + 1)
	res := RandomizationResult{MeanDifference: sum(d) / float64(n), Exact: exact}
	if exact {
		patterns := uint64(1) << n
		count := countPatterns(int(patterns), func(p int, _ *rand.Rand) float64 {
			s := 0.0
			for i, v := range d {
				if uint64(p)>>i&1 == 1 {
					v = -v
				}
				s += v
			}
			return s
		}, observed, tol, 0)
		res.Rounds = int(patterns)
		res.P = float64(count) / float64(patterns)
		return res, nil
	}
	bits := make([]uint64, n)
	for i, v := range d {
		bits[i] = math.Float64bits(v)
	}
	count := countPatterns(opts.Rounds, func(_ int, rng *rand.Rand) float64 {
		// Flip the sign bit of d[i] where the random word has a 1: no
		// branch per item, the same sums as negating.
		s := 0.0
		for lo := 0; lo < n; lo += 64 {
			word := rng.Uint64()
			for i, b := range bits[lo:min(lo+64, n)] {
				s += math.Float64frombits(b ^ (word>>i&1)<<63)
			}
		}
		return s
	}, observed, tol, opts.Seed)
	res.Rounds = opts.Rounds
	res.P = float64(count+1) / float64(opts.Rounds+1)
	return res, nil
}

// countPatterns evaluates rounds patterns in parallel and counts those whose
// |sum| reaches observed (within tol); pattern r's random stream is
// (seed, r).
func countPatterns(rounds int, patternSum func(r int, rng *rand.Rand) float64, observed, tol float64, seed uint64) int {
	counts := make([]int, parallel.Workers(rounds, 256))
	parallel.Chunks(rounds, 256, func(w, lo, hi int) {
		src := rand.NewPCG(0, 0)
		rng := rand.New(src)
		for r := lo; r < hi; r++ {
			src.Seed(seed, uint64(r))
			if math.Abs(patternSum(r, rng)) >= observed-tol {
				counts[w]++
			}
		}
	})
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func absSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}
