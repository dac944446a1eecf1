package correlation

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/internal/pairwise"
)

// MeanInterval returns a seeded percentile bootstrap confidence interval for
// the mean of x (numpy's pairwise mean), the interval a system table reports
// next to each system's mean score: x is resampled with replacement, the
// mean taken on each resample, and the interval read off the percentiles as
// Bootstrap does, with the same options and defaults. NaN values are an
// error: a caller drops undefined scores first and says how many.
func MeanInterval(x []float64, opts BootstrapOptions) (Interval, error) {
	if len(x) == 0 {
		return Interval{}, fmt.Errorf("correlation.MeanInterval: no observations")
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Interval{}, fmt.Errorf("correlation.MeanInterval: observation %d is %v", i, v)
		}
	}
	// Bootstrap resamples pairs; the mean reads the first member only.
	mean := func(xs, _ []float64) (Result, error) {
		return Result{Statistic: pairwise.Mean(xs), P: math.NaN()}, nil
	}
	return Bootstrap(x, x, mean, opts)
}
