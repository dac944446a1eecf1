package correlation

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

// textbookPearson is r = Σ(x−x̄)(y−ȳ)/√(Σ(x−x̄)²Σ(y−ȳ)²), NaN when undefined.
func textbookPearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestBootstrapMatchesIndependentResampling re-derives the interval from the
// documented scheme — resample b draws n indices with
// rand.New(rand.NewPCG(seed, b)).IntN(n) — with a textbook Pearson formula
// and the percentile definition (value at fraction q of the way through the
// sorted replicates, linearly interpolated).
func TestBootstrapMatchesIndependentResampling(t *testing.T) {
	x := []float64{4.2, 3.1, 5.5, 2.0, 4.8, 3.9, 1.5, 5.1, 2.7, 3.3, 4.4, 2.2}
	y := []float64{3.8, 2.9, 4.9, 2.5, 4.1, 4.0, 1.9, 4.4, 3.1, 2.8, 4.6, 1.7}
	const seed, resamples = 42, 2000
	var reps []float64
	undefinedCount := 0
	for b := range resamples {
		rng := rand.New(rand.NewPCG(seed, uint64(b)))
		xs := make([]float64, len(x))
		ys := make([]float64, len(y))
		for k := range xs {
			i := rng.IntN(len(x))
			xs[k], ys[k] = x[i], y[i]
		}
		if r := textbookPearson(xs, ys); math.IsNaN(r) {
			undefinedCount++
		} else {
			reps = append(reps, r)
		}
	}
	slices.Sort(reps)
	pct := func(q float64) float64 {
		h := q * float64(len(reps)-1)
		i := int(h)
		return reps[i] + (h-float64(i))*(reps[i+1]-reps[i])
	}
	for _, workers := range []int{1, 3} {
		iv, err := Bootstrap(x, y, Pearson, BootstrapOptions{Resamples: resamples, Confidence: 0.9, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		full, _ := Pearson(x, y)
		if iv.Estimate != full.Statistic || iv.Resamples != resamples || iv.Undefined != undefinedCount {
			t.Errorf("workers=%d: %+v; want estimate %v, %d undefined", workers, iv, full.Statistic, undefinedCount)
		}
		if math.Abs(iv.Low-pct(0.05)) > 1e-12 || math.Abs(iv.High-pct(0.95)) > 1e-12 {
			t.Errorf("workers=%d: interval [%v, %v], independent [%v, %v]", workers, iv.Low, iv.High, pct(0.05), pct(0.95))
		}
		if !(iv.Low < iv.Estimate && iv.Estimate < iv.High) {
			t.Errorf("estimate %v outside [%v, %v]", iv.Estimate, iv.Low, iv.High)
		}
	}
}

// TestBootstrapDistributionIsExact checks the resampling itself against the
// exact bootstrap distribution, which for n = 4 can be enumerated: each of
// the 4⁴ = 256 index tuples is equally likely. For x = [1 2 3 4] and
// y = [1 3 2 4], Kendall's τ-b takes few values; the frequency of each among
// 40,000 resamples must be within 5 standard errors of its exact
// probability, and the 95% and 40% intervals must be the exact distribution's quantiles
// (each falls strictly inside an atom, checked below).
func TestBootstrapDistributionIsExact(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	y := []float64{1, 3, 2, 4}
	exact := map[float64]float64{} // τ-b → probability; NaN keyed by 2
	for code := range 256 {
		xs, ys := make([]float64, 4), make([]float64, 4)
		for k, c := 0, code; k < 4; k, c = k+1, c/4 {
			xs[k], ys[k] = x[c%4], y[c%4]
		}
		tb, _, _ := bruteKendall(xs, ys)
		if isConstant(xs) {
			tb = 2
		}
		exact[roundKey(tb)] += 1.0 / 256
	}
	const resamples = 40000
	opts := BootstrapOptions{Resamples: resamples, Seed: 7, Workers: 2}
	reps, err := bootstrapReplicates(context.Background(), x, y, KendallTauB, opts)
	if err != nil {
		t.Fatal(err)
	}
	observed := map[float64]float64{}
	for _, r := range reps {
		if math.IsNaN(r) {
			r = 2
		}
		observed[roundKey(r)] += 1.0 / resamples
	}
	for v, p := range exact {
		se := math.Sqrt(p * (1 - p) / resamples)
		if math.Abs(observed[v]-p) > 5*se {
			t.Errorf("τ-b = %v: frequency %v, exact probability %v (se %v)", v, observed[v], p, se)
		}
	}
	if len(observed) != len(exact) {
		t.Errorf("observed values %v, exact %v", observed, exact)
	}

	// Exact quantiles of the defined part of the distribution.
	var values []float64
	for v := range exact {
		if v != 2 {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	quantile := func(q float64) float64 {
		cum := 0.0
		for _, v := range values {
			cum += exact[v] / (1 - exact[2])
			if math.Abs(cum-q) < 0.01 {
				t.Fatalf("quantile %v is within 0.01 of an atom boundary; test not decisive", q)
			}
			if cum > q {
				return v
			}
		}
		return values[len(values)-1]
	}
	var iv Interval
	for _, conf := range []float64{0.95, 0.4} {
		opts.Confidence = conf
		iv, err = Bootstrap(x, y, KendallTauB, opts)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := quantile((1-conf)/2), quantile((1+conf)/2)
		if roundKey(iv.Low) != lo || roundKey(iv.High) != hi {
			t.Errorf("%v interval [%v, %v], exact quantiles [%v, %v]", conf, iv.Low, iv.High, lo, hi)
		}
	}
	wantUndef := exact[2] * resamples
	if math.Abs(float64(iv.Undefined)-wantUndef) > 5*math.Sqrt(wantUndef) {
		t.Errorf("%d undefined resamples, expected about %v", iv.Undefined, wantUndef)
	}
}

// roundKey merges values that differ only by rounding (τ-b of equivalent
// resamples computed in different orders).
func roundKey(v float64) float64 { return math.Round(v*1e9) / 1e9 }

func TestPercentileLinear(t *testing.T) {
	// np.percentile([1, 2, 3, 4, 10], [0, 2.5, 50, 90, 100]).
	s := []float64{1, 2, 3, 4, 10}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.025, 1.1}, {0.5, 3}, {0.9, 7.6}, {1, 10}} {
		if got := percentileLinear(s, c.q); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("q=%v: %v, want %v", c.q, got, c.want)
		}
	}
}

func TestBootstrapErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, o := range []BootstrapOptions{{Resamples: -1}, {Confidence: 1}, {Confidence: -0.5}, {Confidence: math.NaN()}} {
		if _, err := Bootstrap(x, x, Pearson, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := Bootstrap(x, x, nil, BootstrapOptions{}); err == nil {
		t.Error("nil coefficient: no error")
	}
	if _, err := Bootstrap(x, x[:2], Pearson, BootstrapOptions{}); err == nil {
		t.Error("length mismatch: no error")
	}
	if _, err := Bootstrap(nil, nil, Spearman, BootstrapOptions{}); err == nil {
		t.Error("no observations: no error")
	}
	// Every resample of a constant pair is undefined.
	iv, err := Bootstrap([]float64{1, 2}, []float64{5, 5}, Spearman, BootstrapOptions{Resamples: 50})
	if err != nil || !math.IsNaN(iv.Low) || !math.IsNaN(iv.High) || iv.Undefined != 50 {
		t.Errorf("constant y: %+v, %v; want NaN interval, 50 undefined", iv, err)
	}
}

func TestBootstrapContextStopsAndReportsProgress(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	y := []float64{2, 1, 4, 3, 6, 5, 8, 7}
	var done atomic.Int64
	opts := BootstrapOptions{Resamples: 500, Seed: 3, Progress: func(n int) { done.Add(int64(n)) }}
	want, err := Bootstrap(x, y, Pearson, opts)
	if err != nil {
		t.Fatal(err)
	}
	if done.Load() != 500 {
		t.Errorf("Progress counted %d resamples, want 500", done.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	got, err := BootstrapContext(ctx, x, y, Pearson, opts)
	if err != nil || got != want {
		t.Fatalf("BootstrapContext = %+v, %v; want %+v as Bootstrap", got, err, want)
	}
	cancel()
	if _, err := BootstrapContext(ctx, x, y, Pearson, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v, want context.Canceled", err)
	}
}
