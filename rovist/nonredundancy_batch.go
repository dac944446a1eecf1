package rovist

import (
	"runtime"
	"sync"
)

// NonRedundancyAll scores many stories with RoViST-NR on GOMAXPROCS
// goroutines, one NRScorer each, and returns the results in input order.
// errs[i] is the error of story i (nil when it scored), so one bad story
// does not hide the others' scores.
func NonRedundancyAll(stories []string, opts *NROptions) (results []NRResult, errs []error) {
	results = make([]NRResult, len(stories))
	errs = make([]error, len(stories))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(stories)/32))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(stories)*w/workers, len(stories)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc NRScorer
			if opts != nil {
				sc.Options = *opts
			}
			for i := lo; i < hi; i++ {
				results[i], errs[i] = sc.Score(stories[i])
			}
		}()
	}
	wg.Wait()
	return results, errs
}
