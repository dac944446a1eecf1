package vhed

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

// NamedScorer is one scorer of an assessment run, as `storyeval vhed
// assess` lists them: its name, where its predictions come from, the
// scorer, and the correlations of its per-story scores with error labels.
type NamedScorer struct {
	// Name is the score column's header or the metric's name.
	Name string
	// Source says where the predictions come from: a file, or the
	// algorithm and the references.
	Source string
	// Scorer gives the predictions to Assess.
	Scorer AssessPairScorer
	// Errors holds, for ColumnScorers given error labels, one correlation
	// per label in the labels' order.
	Errors []ErrorCorrelation
}

// ErrorCorrelation is the point-biserial correlation of a scorer's
// per-story scores with one error label (AssessErrorCorrelation).
type ErrorCorrelation struct {
	// Error is the label's name, the error type.
	Error string
	// Stories is the number of stories both the scores and the label have.
	Stories int
	// Result holds r and its p-value.
	Result correlation.Result
}

// ColumnScorers returns one NamedScorer per column of a scores file
// (ReadScores), its predictions fixed (AssessFixedGaps), source naming the
// file. With labels every column must hold per-story scores, and each
// scorer carries its correlation with every label.
func ColumnScorers(cols []ScoreColumn, source string, labels []ErrorLabels) ([]NamedScorer, error) {
	out := make([]NamedScorer, 0, len(cols))
	for _, c := range cols {
		s := NamedScorer{Name: c.Name, Source: source, Scorer: AssessFixedGaps(c.Gaps)}
		for _, l := range labels {
			if c.Stories == nil {
				return nil, fmt.Errorf("error labels need per-story scores (columns story_id and model) in %s", source)
			}
			r, n, err := AssessErrorCorrelation(l.Labels, c.Stories)
			if err != nil {
				return nil, fmt.Errorf("error %q, scores %q: %w", l.Name, c.Name, err)
			}
			s.Errors = append(s.Errors, ErrorCorrelation{Error: l.Name, Stories: n, Result: r})
		}
		out = append(out, s)
	}
	return out, nil
}

// MetricScorers returns one NamedScorer per comma-separated metric name
// (AssessRefMetricByName) scored against refs: with the Reference Absent
// algorithm (RefAbsentScorer), or, when refAbsent is false, against all
// references (AssessRefScorer). refSource names the references in each
// scorer's Source.
func MetricScorers(names string, refs map[string][]string, refSource string, refAbsent bool) ([]NamedScorer, error) {
	var out []NamedScorer
	for _, name := range strings.Split(names, ",") {
		m, err := AssessRefMetricByName(name)
		if err != nil {
			return nil, err
		}
		if refAbsent {
			out = append(out, NamedScorer{Name: m.Name(), Source: "Reference Absent, references: " + refSource,
				Scorer: RefAbsentScorer{Metric: m, References: refs}})
		} else {
			out = append(out, NamedScorer{Name: m.Name(), Source: "all references: " + refSource,
				Scorer: AssessRefScorer{Metric: m, References: refs}})
		}
	}
	return out, nil
}
