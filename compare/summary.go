package compare

import (
	"context"
	"math"

	"github.com/storyeval/storyeval/correlation"
)

// Settings are the statistical settings a summary was computed with:
// bootstrap resamples of the intervals, rounds of the randomization tests
// (exact for up to 20 stories), the intervals' coverage and the seed of
// both.
type Settings struct {
	Resamples  int     `json:"bootstrap_resamples"`
	Rounds     int     `json:"randomization_rounds"`
	Confidence float64 `json:"confidence"`
	Seed       uint64  `json:"seed"`
}

// SystemStat is one system's result on one metric: the mean of its defined
// per-story scores with a bootstrap interval.
type SystemStat struct {
	Mean      Float `json:"mean"`
	Low       Float `json:"ci_low"`
	High      Float `json:"ci_high"`
	N         int   `json:"n"`
	Undefined int   `json:"undefined"`
}

// PairTest is the paired approximate randomization test of two systems on
// one metric, over the stories both have a defined score for.
type PairTest struct {
	Metric         string `json:"metric"`
	A              string `json:"system_a"`
	B              string `json:"system_b"`
	N              int    `json:"n"`
	MeanDifference Float  `json:"mean_difference"`
	P              Float  `json:"p"`
	Exact          bool   `json:"exact"`
	Rounds         int    `json:"rounds"`
}

// Summary is what summary.json holds: per system and metric the mean with
// its bootstrap interval, per metric and pair of systems the paired
// randomization test, and the correlations with human ratings.
type Summary struct {
	Sequences   int                              `json:"sequences"`
	Systems     []string                         `json:"systems"`
	Metrics     []string                         `json:"metrics"`
	Unavailable []Unavailable                    `json:"unavailable"`
	PerSystem   map[string]map[string]SystemStat `json:"per_system"`
	Pairs       []PairTest                       `json:"pairs"`
	Human       *HumanSummary                    `json:"human,omitempty"`
	Settings    Settings                         `json:"settings"`
	// PairCorrection holds the pairwise tests' p-values adjusted for
	// multiple comparisons (one family: every test in Pairs).
	PairCorrection *PairCorrection `json:"pair_correction,omitempty"`
	// Corpus holds, per metric that defines one (BLEU-4, CIDEr-D) and
	// system, the corpus-level score papers report.
	Corpus map[string]map[string]Float `json:"corpus,omitempty"`
	// Degenerate says, per metric whose per-story scores are degenerate
	// (e.g. unsmoothed per-story BLEU-4), why its per-story means do not
	// rank the systems.
	Degenerate map[string]string `json:"degenerate,omitempty"`
	// Demonstration labels, per metric computed by demonstration models
	// (ModelsOptions.Demonstration), what its scores are: random weights
	// that show the pipeline, not quality.
	Demonstration map[string]string `json:"demonstration,omitempty"`
}

// PairCorrection is a multiple-comparison correction of the pairwise
// tests: P[i] is Pairs[i]'s adjusted p-value (null where the test is
// undefined).
type PairCorrection struct {
	Method string  `json:"method"`
	Family string  `json:"family"`
	P      []Float `json:"p_adjusted"`
}

// correctPairs adjusts the pairwise tests' p-values with method, the
// family being every pairwise test of the run.
func correctPairs(pairs []PairTest, method correlation.Correction) (*PairCorrection, error) {
	p := make([]float64, len(pairs))
	for i, t := range pairs {
		p[i] = float64(t.P)
	}
	adj, err := correlation.AdjustP(p, method)
	if err != nil {
		return nil, err
	}
	out := &PairCorrection{Method: method.String(), Family: "every pairwise test of the run (all metrics and pairs of systems)", P: make([]Float, len(adj))}
	for i, v := range adj {
		out.P[i] = Float(v)
	}
	return out, nil
}

// definedPairs returns the values of a and b at the indices where both are
// defined (not NaN).
func definedPairs(a, b []float64) (x, y []float64) {
	for i := range a {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			x = append(x, a[i])
			y = append(y, b[i])
		}
	}
	return x, y
}

// summarizeScores computes the per-system means with intervals and the pairwise
// significance tests of every metric column.
func summarizeScores(ctx context.Context, systems []string, cols []Column, set Settings, step func()) (map[string]map[string]SystemStat, []PairTest, error) {
	per := map[string]map[string]SystemStat{}
	var pairs []PairTest
	for _, sys := range systems {
		per[sys] = map[string]SystemStat{}
	}
	for _, col := range cols {
		for _, sys := range systems {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			var defined []float64
			for _, v := range col.Scores[sys] {
				if !math.IsNaN(v) {
					defined = append(defined, v)
				}
			}
			st := SystemStat{Mean: Float(math.NaN()), Low: Float(math.NaN()), High: Float(math.NaN()), N: len(defined), Undefined: len(col.Scores[sys]) - len(defined)}
			if len(defined) > 0 {
				iv, err := correlation.MeanInterval(defined, correlation.BootstrapOptions{Resamples: set.Resamples, Confidence: set.Confidence, Seed: set.Seed})
				if err != nil {
					return nil, nil, err
				}
				st.Mean, st.Low, st.High = Float(iv.Estimate), Float(iv.Low), Float(iv.High)
			}
			per[sys][col.Name] = st
			step()
		}
		for i := range systems {
			for j := i + 1; j < len(systems); j++ {
				a, b := definedPairs(col.Scores[systems[i]], col.Scores[systems[j]])
				t := PairTest{Metric: col.Name, A: systems[i], B: systems[j], N: len(a), MeanDifference: Float(math.NaN()), P: Float(math.NaN())}
				if len(a) > 0 {
					r, err := correlation.PairedRandomization(a, b, correlation.RandomizationOptions{Rounds: set.Rounds, Seed: set.Seed})
					if err != nil {
						return nil, nil, err
					}
					t.MeanDifference, t.P, t.Exact, t.Rounds = Float(r.MeanDifference), Float(r.P), r.Exact, r.Rounds
				}
				pairs = append(pairs, t)
			}
		}
	}
	return per, pairs, nil
}
