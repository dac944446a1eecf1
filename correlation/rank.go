package correlation

import "slices"

// averageRanks returns the 1-based ranks of xs with ties given the average
// of the ranks they span, as scipy.stats.rankdata(method='average'). Every
// rank is a multiple of ½, so later sums of rank products are exact.
func averageRanks(xs []float64) []float64 {
	order := sortedOrder(xs)
	ranks := make([]float64, len(xs))
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && xs[order[end]] == xs[order[start]] {
			end++
		}
		// Positions start..end−1 hold ranks start+1..end; their mean is
		// (start+1+end)/2, computed as rankdata does: 0.5·(end + start + 1).
		r := 0.5 * float64(end+start+1)
		for _, i := range order[start:end] {
			ranks[i] = r
		}
		start = end
	}
	return ranks
}

// sortedOrder returns the indices of xs in ascending order of value (ties
// in any order). Values travel with their indices during the sort, which is
// several times faster than comparing through the indices.
func sortedOrder(xs []float64) []int32 {
	type valueIndex struct {
		v float64
		i int32
	}
	pairs := make([]valueIndex, len(xs))
	for i, v := range xs {
		pairs[i] = valueIndex{v, int32(i)}
	}
	slices.SortFunc(pairs, func(a, b valueIndex) int { return compareFinite(a.v, b.v) })
	order := make([]int32, len(xs))
	for k, p := range pairs {
		order[k] = p.i
	}
	return order
}

// compareFinite orders finite floats (inputs are validated), without the NaN
// handling of cmp.Compare; −0 and +0 compare equal, as in SciPy's ranking.
func compareFinite(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
