package correlation

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/storyeval/storyeval/internal/parallel"
)

// Coefficient is a correlation function such as Pearson, Spearman,
// KendallTauB or KendallTauC. Bootstrap and Williams accept any of them, or
// a closure over Kendall with options.
type Coefficient func(x, y []float64) (Result, error)

// Defaults of BootstrapOptions, those of scipy.stats.bootstrap.
const (
	DefaultResamples  = 9999
	DefaultConfidence = 0.95
)

// maxResamples bounds BootstrapOptions.Resamples so that a mistyped count
// fails instead of allocating without limit.
const maxResamples = 100_000_000

// BootstrapOptions configures Bootstrap. The zero value means 9,999
// resamples, a 95% interval and seed 0.
type BootstrapOptions struct {
	// Resamples is the number of bootstrap resamples (0: DefaultResamples).
	Resamples int
	// Confidence is the coverage of the interval, in (0, 1)
	// (0: DefaultConfidence).
	Confidence float64
	// Seed selects the random resamples: resample b draws its indices from
	// rand.New(rand.NewPCG(Seed, b)) (math/rand/v2), so results are
	// reproducible and independent of Workers.
	Seed uint64
	// Workers is the number of goroutines (0: runtime.GOMAXPROCS(0)); with
	// more than one, the coefficient function is called concurrently and
	// must be safe for that (the package's functions are).
	Workers int
	// Progress, when set, is called with 1 after each finished resample,
	// from the worker goroutines, so it must be safe for concurrent use. A
	// command uses it to show how far a long bootstrap has got.
	Progress func(done int)
}

// Interval is a bootstrap percentile confidence interval.
type Interval struct {
	// Estimate is the coefficient on the full sample.
	Estimate float64
	// Low and High are the (1−Confidence)/2 and (1+Confidence)/2 percentiles
	// of the defined resample coefficients, with numpy's default (linear)
	// interpolation, as scipy.stats.bootstrap(method='percentile').
	Low, High float64
	// Resamples is the number of resamples drawn.
	Resamples int
	// Undefined counts resamples whose coefficient was NaN (for example a
	// resample that repeats one observation); they are left out of the
	// percentiles. SciPy's bootstrap would return a NaN interval instead.
	Undefined int
}

// Bootstrap returns a seeded percentile bootstrap confidence interval for
// coef(x, y): pairs (x[i], y[i]) are resampled with replacement, coef is
// computed on each resample, and the interval is read off the percentiles.
// Errors from coef on the full sample are returned as they are; the interval
// is NaN when the coefficient is undefined on every resample.
func Bootstrap(x, y []float64, coef Coefficient, opts BootstrapOptions) (Interval, error) {
	return BootstrapContext(context.Background(), x, y, coef, opts)
}

// BootstrapContext is Bootstrap that stops early, returning ctx's error,
// once ctx is done (checked before every resample).
func BootstrapContext(ctx context.Context, x, y []float64, coef Coefficient, opts BootstrapOptions) (Interval, error) {
	if coef == nil {
		return Interval{}, fmt.Errorf("correlation.Bootstrap: nil coefficient function")
	}
	if opts.Resamples == 0 {
		opts.Resamples = DefaultResamples
	}
	if opts.Resamples < 0 || opts.Resamples > maxResamples {
		return Interval{}, fmt.Errorf("correlation.Bootstrap: %d resamples; need 1 to %d", opts.Resamples, maxResamples)
	}
	if opts.Confidence == 0 {
		opts.Confidence = DefaultConfidence
	}
	if !(opts.Confidence > 0 && opts.Confidence < 1) {
		return Interval{}, fmt.Errorf("correlation.Bootstrap: confidence %v is not in (0, 1)", opts.Confidence)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	full, err := coef(x, y)
	if err != nil {
		return Interval{}, err
	}
	if len(x) == 0 {
		return Interval{}, fmt.Errorf("correlation.Bootstrap: no observations to resample")
	}

	stats, err := bootstrapReplicates(ctx, x, y, coef, opts)
	if err != nil {
		return Interval{}, err
	}
	defined := stats[:0]
	for _, s := range stats {
		if !math.IsNaN(s) {
			defined = append(defined, s)
		}
	}
	iv := Interval{
		Estimate:  full.Statistic,
		Low:       math.NaN(),
		High:      math.NaN(),
		Resamples: opts.Resamples,
		Undefined: opts.Resamples - len(defined),
	}
	if len(defined) > 0 {
		slices.Sort(defined)
		alpha := (1 - opts.Confidence) / 2
		// np.percentile receives alpha·100 and divides by 100 again.
		iv.Low = percentileLinear(defined, alpha*100/100)
		iv.High = percentileLinear(defined, (1-alpha)*100/100)
	}
	return iv, nil
}

// bootstrapReplicates computes coef on opts.Resamples resamples in parallel;
// element b comes from the random stream (Seed, b) whichever worker runs it.
func bootstrapReplicates(ctx context.Context, x, y []float64, coef Coefficient, opts BootstrapOptions) ([]float64, error) {
	n := len(x)
	stats := make([]float64, opts.Resamples)
	var stop atomic.Bool // set on the first error, so other workers end early
	errs := make([]error, opts.Workers)
	parallel.ChunksN(opts.Resamples, opts.Workers, func(w, lo, hi int) {
		src := rand.NewPCG(0, 0)
		rng := rand.New(src)
		xs := make([]float64, n)
		ys := make([]float64, n)
		for b := lo; b < hi && !stop.Load(); b++ {
			if err := ctx.Err(); err != nil {
				errs[w] = err
				stop.Store(true)
				return
			}
			src.Seed(opts.Seed, uint64(b))
			for k := range n {
				i := rng.IntN(n)
				xs[k], ys[k] = x[i], y[i]
			}
			res, err := coef(xs, ys)
			if err != nil {
				errs[w] = fmt.Errorf("correlation.Bootstrap: resample %d: %w", b, err)
				stop.Store(true)
				return
			}
			stats[b] = res.Statistic
			if opts.Progress != nil {
				opts.Progress(1)
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return stats, nil
}

// percentileLinear is numpy's percentile with the default 'linear' method
// on sorted values, q in [0, 1]: the value at virtual index q·(n−1),
// interpolated as numpy's _lerp (from the upper neighbour when the fraction
// is at least ½).
func percentileLinear(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	if i < 0 {
		return sorted[0]
	}
	t := h - lo
	a, b := sorted[i], sorted[i+1]
	d := b - a
	if t >= 0.5 {
		return b - d*(1-t)
	}
	return a + d*t
}
