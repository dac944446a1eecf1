package vhed

import "fmt"

// ScorerFiles name the scorers of an assessment run (ScorerFiles.Load).
type ScorerFiles struct {
	// CSV is the VHED file, whose human stories are the default references.
	CSV string
	// Scores is a scores CSV (LoadScores, ColumnScorers) and Errors a CSV
	// of error labels (LoadErrorLabels) for its per-story columns; "" for
	// none.
	Scores, Errors string
	// Metrics are comma-separated reference metrics (MetricScorers), scored
	// against the references of the JSON file Refs (LoadReferences) or,
	// when Refs is "", the human stories of the pairs (References with
	// IsReference); RefAbsent selects the Reference Absent algorithm.
	Metrics, Refs string
	RefAbsent     bool
	IsReference   func(model string) bool
}

// InputError is ScorerFiles.Load's error about the error labels (Input
// "errors", with their Path) or the metric names (Input "metrics").
type InputError struct {
	Input, Path string
	Err         error
}

// Error names the input (and its file, when it has one) and what is wrong.
func (e *InputError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("%s %s: %v", e.Input, e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Input, e.Err)
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// Load reads the files f names and returns their scorers for pairs:
// the columns of the scores file, with their error correlations, then the
// reference metrics. Errors name the file, or are an *InputError.
func (f ScorerFiles) Load(pairs []Pair) ([]NamedScorer, error) {
	var jobs []NamedScorer
	if f.Scores != "" {
		cols, err := LoadScores(f.Scores, pairs)
		if err != nil {
			return nil, err
		}
		var labels []ErrorLabels
		if f.Errors != "" {
			if labels, err = LoadErrorLabels(f.Errors); err != nil {
				return nil, err
			}
		}
		if jobs, err = ColumnScorers(cols, f.Scores, labels); err != nil {
			return nil, &InputError{Input: "errors", Path: f.Errors, Err: err}
		}
	}
	if f.Metrics == "" {
		return jobs, nil
	}
	refs, refSource := References(pairs, f.IsReference), "human stories of "+f.CSV
	if f.Refs != "" {
		var err error
		if refs, err = LoadReferences(f.Refs); err != nil {
			return nil, err
		}
		refSource = f.Refs
	}
	ms, err := MetricScorers(f.Metrics, refs, refSource, f.RefAbsent)
	if err != nil {
		return nil, &InputError{Input: "metrics", Err: err}
	}
	return append(jobs, ms...), nil
}
