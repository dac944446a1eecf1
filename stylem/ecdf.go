package stylem

// ECDFKind selects how the empirical CDF of document frequencies turns a
// count into a value in (0, 1].
type ECDFKind int

const (
	// ECDFCountRatio, the default, is #{df values ≤ x} / m computed as one
	// division: the empirical CDF's definition, and the arithmetic of the
	// golden fixture, which was produced by running the StyleM code.
	ECDFCountRatio ECDFKind = iota
	// ECDFStatsmodels is statsmodels' ECDF, which preStyleM's source
	// calls: the value for the i-th smallest of m df values is element i of
	// np.linspace(1/m, 1, m), computed as i·((1−1/m)/(m−1)) + 1/m with the
	// last element exactly 1. It differs from (i+1)/m in the last bit for
	// some i; choose it to match runs made with statsmodels installed.
	ECDFStatsmodels
)

// ecdfKindNames are the kinds' names in table files and the command.
var ecdfKindNames = enumNames[ECDFKind]{"ECDFKind", []string{"count-ratio", "statsmodels"}}

// String returns the kind's name as used in table files and the command:
// "count-ratio" or "statsmodels".
func (e ECDFKind) String() string { return ecdfKindNames.name(e) }

func (e ECDFKind) valid() bool { return ecdfKindNames.valid(e) }

// ECDFByName returns the kind called "count-ratio" or "statsmodels".
func ECDFByName(name string) (ECDFKind, error) {
	return ecdfKindNames.parse(name, "ECDF")
}

// ecdfTable holds ECDF(x) for every df value x from 0 to the largest of
// one style's n-grams of one order: x is an integer count, so a lookup
// table replaces the search.
type ecdfTable []float64

// newECDF builds the table for the df values dfs (unsorted, all ≥ 1).
// ECDF(0) = 0, as for an n-gram absent from the style.
func newECDF(dfs []uint32, kind ECDFKind) ecdfTable {
	var h dfHistogram
	for _, x := range dfs {
		h.add(x, 1)
	}
	return h.ecdf(kind)
}

// dfHistogram counts n-grams by document frequency: h[x] n-grams have df
// x. It is all an ECDF needs, so a build that sees each n-gram once, in
// any order, need not keep the df values themselves.
type dfHistogram []uint32

// add counts n more n-grams with df x.
func (h *dfHistogram) add(x uint32, n uint32) {
	if int(x) >= len(*h) {
		*h = append(*h, make([]uint32, int(x)+1-len(*h))...)
	}
	(*h)[x] += n
}

// ecdf returns the ECDF table of the counted values. count = #{values ≤
// x} is walked up as x grows (numpy's searchsorted side='right').
func (h dfHistogram) ecdf(kind ECDFKind) ecdfTable {
	m := 0
	for _, c := range h {
		m += int(c)
	}
	if m == 0 {
		return ecdfTable{0}
	}
	t := make(ecdfTable, len(h)) // the last count is non-zero: len is max+1
	count := 0
	for x := range t {
		count += int(h[x])
		t[x] = ecdfValue(count, m, kind)
	}
	return t
}

// ecdfValue is the ECDF value when count of the m values are ≤ x.
func ecdfValue(count, m int, kind ECDFKind) float64 {
	if count == 0 {
		return 0
	}
	if kind == ECDFCountRatio {
		return float64(count) / float64(m)
	}
	// statsmodels: StepFunction over y = np.linspace(1/m, 1, m); the step
	// index for count values ≤ x is count-1.
	i := count - 1
	if i == m-1 {
		return 1 // linspace sets its endpoint to stop exactly (also m = 1)
	}
	start := 1 / float64(m)
	step := (1 - start) / float64(m-1)
	// The explicit conversion keeps the compiler from fusing into an FMA:
	// numpy multiplies, rounds, then adds.
	return float64(float64(i)*step) + start
}

// at returns ECDF(x); x beyond the largest value gives 1.
func (t ecdfTable) at(x uint32) float64 {
	if int(x) >= len(t) {
		return t[len(t)-1]
	}
	return t[x]
}
