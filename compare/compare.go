package compare

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/story"
)

// Float is a float64 that marshals to JSON in shortest round-trip form
// (strconv.FormatFloat(x, 'g', -1, 64)) and as null when NaN or infinite,
// since JSON has no literal for them; the library's writers share it.
type Float = jsonfloat.Float

// Defaults of Options: those of the storyeval score command.
const (
	DefaultResamples  = 1000
	DefaultRounds     = 9999
	DefaultConfidence = 0.95
)

// Options configure Compare. The zero value gives the defaults: 1000
// bootstrap resamples, 9999 randomization rounds (exact for up to 20
// stories), 95 % intervals, seed 0, no human ratings, no progress.
type Options struct {
	// Resamples, Rounds, Confidence and Seed are the statistical
	// settings; zero means the default.
	Resamples  int
	Rounds     int
	Confidence float64
	Seed       uint64
	// Ratings, when not nil, are human ratings of the stories (see
	// ReadRatings): the report adds each metric's correlation with them
	// and the Williams tests between metrics.
	Ratings Ratings
	// Progress, when not nil, is called as the run advances: Done of
	// Total units of the whole run, Stage naming the metric (its columns)
	// or "summary". It may be called from several goroutines, never at
	// once.
	Progress func(Progress)
	// Correction is the multiple-comparison correction of the pairwise
	// tests, over every pairwise test of the run; the zero value is
	// Holm's. The report marks a difference significant by the adjusted
	// p-value.
	Correction correlation.Correction
}

// Progress is how far a Compare run has got.
type Progress struct {
	Stage       string
	Done, Total int
}

// settings returns the statistical settings of o, defaults filled in.
func (o Options) settings() (Settings, error) {
	s := Settings{Resamples: o.Resamples, Rounds: o.Rounds, Confidence: o.Confidence, Seed: o.Seed}
	if s.Resamples == 0 {
		s.Resamples = DefaultResamples
	}
	if s.Rounds == 0 {
		s.Rounds = DefaultRounds
	}
	if s.Confidence == 0 {
		s.Confidence = DefaultConfidence
	}
	if !(s.Confidence > 0 && s.Confidence < 1) {
		return s, fmt.Errorf("confidence %v is not in (0, 1)", s.Confidence)
	}
	if s.Resamples < 1 || s.Rounds < 1 {
		return s, fmt.Errorf("%d resamples and %d rounds: both must be at least 1", s.Resamples, s.Rounds)
	}
	return s, nil
}

// Report is what a Compare run computed: the per-story scores with their
// diagnostics and the summary (summary.json); the Write methods render
// it.
type Report struct {
	Suite   *story.Suite
	Systems []string
	// Columns are the computed metric columns, in the order of the
	// metrics given to Compare.
	Columns []Column
	// Ratings are the human ratings compared with (nil without).
	Ratings Ratings
	Summary Summary
	// Cache counts, per kind of embedding (ImageEmbeddings,
	// TextEmbeddings), the run's lookups in the embedding cache and the
	// hits; nil when no metric used a cache.
	Cache map[string]CacheCount
}

// UnavailableColumns lists, in the order of the metrics and their
// columns, the columns that cannot be computed on s, with what each
// needs: those Compare leaves out.
func UnavailableColumns(s *story.Suite, metrics []Metric) []Unavailable {
	var out []Unavailable
	for _, m := range metrics {
		out = append(out, m.Unavailable(s)...)
	}
	return out
}

// Compare scores every system's stories of suite with each metric whose
// inputs are present and summarizes the scores: per system and column the
// mean of the defined scores with a bootstrap interval, per column and
// pair of systems a paired randomization test, and with opts.Ratings the
// correlations with the human ratings and the Williams tests. Columns a
// metric cannot compute are listed in Summary.Unavailable. Cancelling ctx
// stops the run with ctx's error.
func Compare(ctx context.Context, suite *story.Suite, metrics []Metric, opts Options) (*Report, error) {
	set, err := opts.settings()
	if err != nil {
		return nil, err
	}
	if suite == nil || suite.Len() == 0 {
		return nil, fmt.Errorf("no stories to compare")
	}
	r := &Report{Suite: suite, Systems: suite.Systems(), Ratings: opts.Ratings}
	r.Summary = Summary{Sequences: suite.Len(), Systems: r.Systems, Settings: set, Unavailable: []Unavailable{}, Pairs: []PairTest{}}
	type job struct {
		m    Metric
		cols []string
	}
	var jobs []job
	nCols := 0
	for _, m := range metrics {
		un := m.Unavailable(suite)
		r.Summary.Unavailable = append(r.Summary.Unavailable, un...)
		var cols []string
		for _, c := range m.Columns() {
			if !slices.ContainsFunc(un, func(u Unavailable) bool { return u.Metric == c }) {
				cols = append(cols, c)
			}
		}
		if len(cols) > 0 {
			jobs = append(jobs, job{m, cols})
			nCols += len(cols)
		}
	}
	// One count for the whole run: each metric has a unit per story and
	// system, the summary a unit per column and system.
	share := len(r.Systems) * suite.Len()
	total := len(jobs)*share + nCols*len(r.Systems)
	// Library callbacks may come from several goroutines: the lock
	// keeps opts.Progress from being called twice at once.
	var progressMu sync.Mutex
	report := func(stage string, done int) {
		if opts.Progress != nil {
			progressMu.Lock()
			defer progressMu.Unlock()
			opts.Progress(Progress{Stage: stage, Done: done, Total: total})
		}
	}
	counters := map[*CacheCounter]map[string]CacheCount{}
	for _, j := range jobs {
		if c, ok := j.m.(interface{ cacheCounter() *CacheCounter }); ok {
			counters[c.cacheCounter()] = c.cacheCounter().Counts()
		}
	}
	prep := &prepared{done: map[string]*preparedValue{}}
	for k, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stage := strings.Join(j.cols, ", ")
		base := k * share
		report(stage, base)
		in := &Inputs{Suite: suite, Systems: r.Systems, Columns: j.cols, prep: prep, Progress: func(done, of int) {
			if of > 0 {
				report(stage, base+share*min(done, of)/of)
			}
		}}
		cols, err := j.m.Score(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", j.m.Name(), err)
		}
		if err := checkColumns(j.m.Name(), j.cols, cols, r.Systems, suite.Len()); err != nil {
			return nil, err
		}
		r.Columns = append(r.Columns, cols...)
		for _, c := range cols {
			r.Summary.Metrics = append(r.Summary.Metrics, c.Name)
		}
	}
	done := len(jobs) * share
	per, pairs, err := summarizeScores(ctx, r.Systems, r.Columns, set, func() {
		done++
		report("summary", done)
	})
	if err != nil {
		return nil, err
	}
	r.Summary.PerSystem, r.Summary.Pairs = per, append(r.Summary.Pairs, pairs...)
	if r.Summary.PairCorrection, err = correctPairs(r.Summary.Pairs, opts.Correction); err != nil {
		return nil, err
	}
	for _, c := range r.Columns {
		if c.Corpus != nil {
			if r.Summary.Corpus == nil {
				r.Summary.Corpus = map[string]map[string]Float{}
			}
			r.Summary.Corpus[c.Name] = map[string]Float{}
			for sys, v := range c.Corpus {
				r.Summary.Corpus[c.Name][sys] = Float(v)
			}
		}
		if c.Degenerate != "" {
			if r.Summary.Degenerate == nil {
				r.Summary.Degenerate = map[string]string{}
			}
			r.Summary.Degenerate[c.Name] = c.Degenerate
		}
		if c.Demonstration != "" {
			if r.Summary.Demonstration == nil {
				r.Summary.Demonstration = map[string]string{}
			}
			r.Summary.Demonstration[c.Name] = c.Demonstration
		}
	}
	if opts.Ratings != nil {
		if r.Summary.Human, err = correlateWithHumans(ctx, suite, r.Systems, r.Columns, opts.Ratings, set); err != nil {
			return nil, err
		}
	}
	for c, before := range counters {
		for kind, n := range c.Counts() {
			if r.Cache == nil {
				r.Cache = map[string]CacheCount{}
			}
			sum := r.Cache[kind]
			sum.Hits += n.Hits - before[kind].Hits
			sum.Lookups += n.Lookups - before[kind].Lookups
			r.Cache[kind] = sum
		}
	}
	return r, nil
}

// checkColumns checks that a metric returned the columns asked for, each
// with a score and a note per story of every system.
func checkColumns(metric string, want []string, cols []Column, systems []string, n int) error {
	if len(cols) != len(want) {
		return fmt.Errorf("%s returned %d columns, want %d (%q)", metric, len(cols), len(want), want)
	}
	for i, c := range cols {
		if c.Name != want[i] {
			return fmt.Errorf("%s returned column %q, want %q", metric, c.Name, want[i])
		}
		for _, sys := range systems {
			if len(c.Scores[sys]) != n || len(c.Notes[sys]) != n {
				return fmt.Errorf("%s: column %q has %d scores and %d notes for system %q, want %d", metric, c.Name, len(c.Scores[sys]), len(c.Notes[sys]), sys, n)
			}
		}
	}
	return nil
}
