package rovist

import "github.com/storyeval/storyeval/internal/parallel"

// NonRedundancyAll scores many stories with RoViST-NR on up to GOMAXPROCS
// goroutines, one NRScorer each, and returns the results in input order.
// errs[i] is the error of story i (nil when it scored), so one bad story
// does not hide the others' scores.
func NonRedundancyAll(stories []string, opts NROptions) (results []NRResult, errs []error) {
	results = make([]NRResult, len(stories))
	errs = make([]error, len(stories))
	parallel.Chunks(len(stories), 32, func(_, lo, hi int) {
		sc := NRScorer{Options: opts}
		for i := lo; i < hi; i++ {
			results[i], errs[i] = sc.Score(stories[i])
		}
	})
	return results, errs
}
