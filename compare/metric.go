package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/story"
)

// Column is one metric column's scores over a suite: per system, one score
// per sequence in suite order (NaN where the metric leaves a story
// undefined), and per story a short diagnostic saying why the score is
// what it is ("" where the metric has none).
type Column struct {
	Name   string
	Scores map[string][]float64
	Notes  map[string][]string
	// Corpus, for a metric that defines a corpus-level score (BLEU-4,
	// CIDEr-D), is that score per system; nil otherwise.
	Corpus map[string]float64
	// Degenerate, when not "", says why the per-story scores do not rank
	// the systems (most are a smoothing constant, not a score).
	Degenerate string
	// SkippedImages, for GROOViST, are the images whose regions
	// contributed nothing (unreadable, or over the decode pixel limit),
	// each once: the reference skips them silently (alignment 0), so the
	// scores are the reference's and this list is what to report.
	SkippedImages []groovist.SkippedImage
	// Demonstration, when not "", labels scores of demonstration models
	// (random weights: they show the pipeline, not quality); see
	// ModelsOptions.Demonstration.
	Demonstration string
}

// Unavailable says why a metric column was not computed.
type Unavailable struct {
	Metric string `json:"metric"`
	Needs  string `json:"needs"`
}

// Metric is one metric family's adapter: it scores every system's stories
// of a suite and names the columns it produces.
type Metric interface {
	// Name is the metric's short name ("bleu", "vg"), what the storyeval
	// command's -metrics flag selects.
	Name() string
	// Columns are the names of the columns it produces, in output order.
	Columns() []string
	// Unavailable lists the columns it cannot compute on s, each with
	// what it needs; nil when it computes them all.
	Unavailable(s *story.Suite) []Unavailable
	// Score computes in.Columns (its available columns) for every
	// system of in.Suite.
	Score(ctx context.Context, in *Inputs) ([]Column, error)
}

// Inputs are what a metric scores in one Compare run: the suite, the
// columns wanted, a progress callback for the metric's share of the run
// and the texts prepared once per run for every metric that needs them.
type Inputs struct {
	Suite   *story.Suite
	Systems []string
	// Columns are the columns to compute (those not Unavailable).
	Columns []string
	// Progress reports done of total units of the metric's work; it is
	// never nil.
	Progress func(done, total int)
	prep     *prepared
}

// prepared memoizes what several metrics of a run share (tokenized
// corpora, per-system n-gram scores), by key.
type prepared struct {
	mu   sync.Mutex
	done map[string]*preparedValue
}

// preparedValue is one value of prepared, made once.
type preparedValue struct {
	once sync.Once
	v    any
	err  error
}

// shared returns the value made for key in this run, making it with f the
// first time (f may itself call shared for other keys).
func shared[T any](in *Inputs, key string, f func() (T, error)) (T, error) {
	in.prep.mu.Lock()
	e, ok := in.prep.done[key]
	if !ok {
		e = &preparedValue{}
		in.prep.done[key] = e
	}
	in.prep.mu.Unlock()
	e.once.Do(func() { e.v, e.err = f() })
	if e.err != nil {
		var zero T
		return zero, e.err
	}
	return e.v.(T), nil
}

// newColumn is a column of n undefined scores of one system.
func newColumn(name, system string, n int) Column {
	c := Column{Name: name, Scores: map[string][]float64{system: make([]float64, n)}, Notes: map[string][]string{system: make([]string, n)}}
	for i := range c.Scores[system] {
		c.Scores[system][i] = math.NaN()
	}
	return c
}

// merge adds the columns of one system to the columns by name.
func merge(dst map[string]*Column, cols []Column, system string) {
	for _, c := range cols {
		d, ok := dst[c.Name]
		if !ok {
			continue
		}
		if d.Scores == nil {
			d.Scores, d.Notes = map[string][]float64{}, map[string][]string{}
		}
		d.Scores[system], d.Notes[system] = c.Scores[system], c.Notes[system]
		if v, ok := c.Corpus[system]; ok {
			if d.Corpus == nil {
				d.Corpus = map[string]float64{}
			}
			d.Corpus[system] = v
		}
	}
}

// perSystem runs score on each system in turn and merges its columns;
// score's progress callback reports the system's share of the metric's
// work, the systems × stories units Compare gives every metric.
func perSystem(ctx context.Context, in *Inputs, score func(system string, progress func(done, total int)) ([]Column, error)) ([]Column, error) {
	byName := map[string]*Column{}
	for _, c := range in.Columns {
		byName[c] = &Column{Name: c}
	}
	n, total := in.Suite.Len(), len(in.Systems)*in.Suite.Len()
	for k, sys := range in.Systems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cols, err := score(sys, func(done, of int) {
			if of > 0 {
				in.Progress(k*n+n*done/of, total)
			}
		})
		if err != nil {
			return nil, err
		}
		merge(byName, cols, sys)
		in.Progress((k+1)*n, total)
	}
	out := make([]Column, 0, len(in.Columns))
	for _, c := range in.Columns {
		out = append(out, *byName[c])
	}
	return out, nil
}

// allSystems splits results computed for every system's stories at once
// (suite order: system by system) into columns: fill sets the scores and
// notes of system sys from its results.
func allSystems[T any](in *Inputs, res []T, fill func(sys string, res []T) []Column) []Column {
	byName := map[string]*Column{}
	for _, c := range in.Columns {
		byName[c] = &Column{Name: c}
	}
	n := in.Suite.Len()
	for k, sys := range in.Systems {
		merge(byName, fill(sys, res[k*n:(k+1)*n]), sys)
	}
	out := make([]Column, 0, len(in.Columns))
	for _, c := range in.Columns {
		out = append(out, *byName[c])
	}
	return out
}

// spec is the name, columns and reference requirement every adapter has.
type spec struct {
	name    string
	columns []string
	// refs: every column needs the suite's human references.
	refs bool
}

// Name implements Metric.
func (s spec) Name() string { return s.name }

// Columns implements Metric.
func (s spec) Columns() []string { return append([]string(nil), s.columns...) }

// Unavailable implements Metric: the columns need references when refs is
// set.
func (s spec) Unavailable(su *story.Suite) []Unavailable {
	if !s.refs || su.HasReferences() {
		return nil
	}
	return unavailableAll(s.columns, needsReferences)
}

// needsReferences is what a reference-based metric needs.
const needsReferences = "human references in the story set"

func unavailableAll(columns []string, needs string) []Unavailable {
	out := make([]Unavailable, len(columns))
	for i, c := range columns {
		out[i] = Unavailable{Metric: c, Needs: needs}
	}
	return out
}

// absent is a metric that cannot run: its inputs are missing.
type absent struct {
	spec
	needs string
	// refColumns also need references, which a suite without them
	// says first (as the metric itself would).
	refColumns []string
}

// Absent returns a metric named name with the given columns that is never
// computed: every column is Unavailable, needing needs. It keeps a metric
// that was asked for but lacks its inputs (a model file, a flag) in the
// report's list of what was not computed.
func Absent(name string, columns []string, needs string) Metric {
	return absent{spec: spec{name: name, columns: columns}, needs: needs}
}

// Unavailable implements Metric.
func (a absent) Unavailable(s *story.Suite) []Unavailable {
	out := unavailableAll(a.columns, a.needs)
	for i, u := range out {
		if slices.Contains(a.refColumns, u.Metric) && s != nil && !s.HasReferences() {
			out[i].Needs = needsReferences
		}
	}
	return out
}

// Score implements Metric: Compare never calls it (every column is
// unavailable); a direct call is an error saying what is missing.
func (a absent) Score(context.Context, *Inputs) ([]Column, error) {
	return nil, fmt.Errorf("%s needs %s", a.name, a.needs)
}
