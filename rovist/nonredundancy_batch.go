package rovist

import "github.com/storyeval/storyeval/internal/parallel"

// NonRedundancyAll scores many stories with RoViST-NR on up to GOMAXPROCS
// goroutines, one NRScorer each, and returns the results in input order.
// errs[i] is the error of story i (nil when it scored), so one bad story
// does not hide the others' scores. Every result keeps its tokens and pair
// scores; NonRedundancyScores keeps only the scores.
func NonRedundancyAll(stories []string, opts NROptions) (results []NRResult, errs []error) {
	results = make([]NRResult, len(stories))
	errs = make([]error, len(stories))
	NonRedundancyEach(stories, opts, func(i int, r *NRResult, err error) {
		results[i], errs[i] = *r, err
	})
	return results, errs
}

// NonRedundancyScores is NonRedundancyAll without the per-story diagnostics:
// each result has Score, Defined, InterMean, IntraMean and Skipped, and nil
// Tokens, Inter and Intra, so that scoring many stories keeps a few dozen
// bytes per story instead of every token and pair.
func NonRedundancyScores(stories []string, opts NROptions) (results []NRResult, errs []error) {
	results = make([]NRResult, len(stories))
	errs = make([]error, len(stories))
	NonRedundancyEach(stories, opts, func(i int, r *NRResult, err error) {
		results[i], errs[i] = *r, err
		results[i].Tokens, results[i].Inter, results[i].Intra = nil, nil, nil
	})
	return results, errs
}

// NonRedundancyEach scores many stories on up to GOMAXPROCS goroutines and
// calls fn with each story's index, result and error (nil when it scored),
// from the goroutine that scored it: calls for different stories run
// concurrently, in no particular order, and fn must only touch what
// belongs to story i. The result is valid during the call; a caller that
// keeps only what it needs from it holds one story's pair scores per
// goroutine at a time, whatever the number of stories.
func NonRedundancyEach(stories []string, opts NROptions, fn func(i int, r *NRResult, err error)) {
	parallel.Chunks(len(stories), 32, func(_, lo, hi int) {
		sc := NRScorer{Options: opts}
		for i := lo; i < hi; i++ {
			r, err := sc.Score(stories[i])
			fn(i, &r, err)
		}
	})
}
