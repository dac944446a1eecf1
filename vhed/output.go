package vhed

import "github.com/storyeval/storyeval/internal/jsonfloat"

// Float is a float64 that marshals to JSON in shortest round-trip form and
// as null when NaN or infinite.
type Float = jsonfloat.Float

// Output is the assessment of scorers against a VHED CSV as `storyeval
// vhed assess` prints it: JSON whose field order is output order, or
// WriteTable's text. Undefined numbers marshal as null.
type Output struct {
	CSV  string `json:"csv"`
	Rows int    `json:"rows"`
	// LabelSign says which sign convention the CSV's label column follows,
	// checked against its rank columns (LabelSign).
	LabelSign string `json:"label_sign"`
	HumanTies int    `json:"human_ties"`
	// Gap names what the gap buckets bucket: rank_norm or the raw gap.
	Gap string `json:"gap_buckets_on"`
	// Split names the pairs the reference/machine split covers.
	Split     string           `json:"split_on"`
	Scorers   []ScorerOutput   `json:"scorers"`
	Bootstrap *BootstrapOutput `json:"bootstrap,omitempty"`
}

// BootstrapOutput records the bootstrap of the accuracy intervals.
type BootstrapOutput struct {
	Resamples  int     `json:"resamples"`
	Confidence float64 `json:"confidence"`
	Seed       uint64  `json:"seed"`
}

// ScorerOutput is one scorer's AssessReport (NewScorerOutput).
type ScorerOutput struct {
	Name               string            `json:"name"`
	Source             string            `json:"source"`
	Pairs              int               `json:"pairs"`
	PredictedTies      int               `json:"predicted_ties"`
	Undecided          int               `json:"undecided"`
	Accuracy           AccuracyOutput    `json:"accuracy"`
	Omega              []OmegaOutput     `json:"omega"`
	OmegaUnion         UnionOutput       `json:"omega_union"`
	Buckets            []BucketOutput    `json:"gap_buckets"`
	ReferenceMachine   AccuracyOutput    `json:"reference_machine"`
	MachineMachine     AccuracyOutput    `json:"machine_machine"`
	ReferenceReference AccuracyOutput    `json:"reference_reference"`
	Outrank            OutrankOutput     `json:"machine_outranks_reference"`
	ErrorGap           CorrelationOutput `json:"error_gap_pointbiserial"`
	// ErrorLabels holds, with -errors, the point-biserial correlation of
	// the scorer's per-story scores with each error label.
	ErrorLabels []ErrorOutput `json:"error_labels_pointbiserial,omitempty"`
}

// ErrorOutput is one ErrorCorrelation.
type ErrorOutput struct {
	Error   string `json:"error"`
	Stories int    `json:"stories"`
	R       Float  `json:"r"`
	P       Float  `json:"p"`
}

// AccuracyOutput is one Accuracy.
type AccuracyOutput struct {
	Correct int   `json:"correct"`
	Total   int   `json:"total"`
	Value   Float `json:"value"`
	Low     Float `json:"low"`
	High    Float `json:"high"`
}

// OmegaOutput is the accuracy on one agreement subset Ω^k.
type OmegaOutput struct {
	K int `json:"k"`
	AccuracyOutput
}

// UnionOutput is the accuracy on the union subset.
type UnionOutput struct {
	Ks []int `json:"ks"`
	AccuracyOutput
}

// BucketOutput is the accuracy on one gap bucket.
type BucketOutput struct {
	MinGap Float `json:"min_gap"`
	// MaxGap is null for the last, unbounded bucket.
	MaxGap Float `json:"max_gap"`
	AccuracyOutput
}

// OutrankOutput is an Outrank count.
type OutrankOutput struct {
	Pairs          int   `json:"pairs"`
	Human          int   `json:"human"`
	Predicted      int   `json:"predicted"`
	HumanRatio     Float `json:"human_ratio"`
	PredictedRatio Float `json:"predicted_ratio"`
}

// CorrelationOutput is a correlation and its p-value.
type CorrelationOutput struct {
	R Float `json:"r"`
	P Float `json:"p"`
}

// accuracyOutput converts an Accuracy.
func accuracyOutput(a Accuracy) AccuracyOutput {
	return AccuracyOutput{a.Correct, a.Total, Float(a.Value), Float(a.Low), Float(a.High)}
}

// NewScorerOutput converts the report of the scorer name (from source)
// and its error-label correlations (NamedScorer.Errors) into output.
func NewScorerOutput(name, source string, r AssessReport, errs []ErrorCorrelation) ScorerOutput {
	o := ScorerOutput{
		Name: name, Source: source, Pairs: r.Pairs, PredictedTies: r.PredictedTies, Undecided: r.Undecided,
		Accuracy:           accuracyOutput(r.Overall),
		ReferenceMachine:   accuracyOutput(r.ReferenceMachine),
		MachineMachine:     accuracyOutput(r.MachineMachine),
		ReferenceReference: accuracyOutput(r.ReferenceReference),
		Outrank: OutrankOutput{r.Outrank.Pairs, r.Outrank.Human, r.Outrank.Predicted,
			Float(r.Outrank.HumanRatio), Float(r.Outrank.PredictedRatio)},
		ErrorGap:   CorrelationOutput{Float(r.ErrorGap.Statistic), Float(r.ErrorGap.P)},
		OmegaUnion: UnionOutput{r.OmegaUnion.Ks, accuracyOutput(r.OmegaUnion.Accuracy)},
	}
	for _, w := range r.Omega {
		o.Omega = append(o.Omega, OmegaOutput{w.K, accuracyOutput(w.Accuracy)})
	}
	for _, b := range r.Buckets {
		o.Buckets = append(o.Buckets, BucketOutput{Float(b.MinGap), Float(b.MaxGap), accuracyOutput(b.Accuracy)})
	}
	for _, e := range errs {
		o.ErrorLabels = append(o.ErrorLabels, ErrorOutput{e.Error, e.Stories, Float(e.Result.Statistic), Float(e.Result.P)})
	}
	return o
}
