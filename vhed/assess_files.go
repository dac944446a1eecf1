package vhed

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/internal/gzipbound"
)

// LoadAll reads the VHED CSV at path row by row (a .gz file is
// decompressed on the way, within opts.Limits), returning its pairs and
// the sign convention of its label column (ReadAll). Errors name the file.
func LoadAll(path string, opts ReadOptions) ([]Pair, LabelSign, error) {
	r, err := gzipbound.OpenFile(path, opts.Limits.Bytes(defaultMaxBytes))
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	pairs, sign, err := ReadAll(r, opts)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, sign, nil
}

// LoadScores reads the scores CSV at path (ReadScores) for pairs.
func LoadScores(path string, pairs []Pair) ([]ScoreColumn, error) {
	return loadFile(path, func(r io.Reader) ([]ScoreColumn, error) { return ReadScores(r, pairs) })
}

// LoadErrorLabels reads the error-labels CSV at path (ReadErrorLabels).
func LoadErrorLabels(path string) ([]ErrorLabels, error) { return loadFile(path, ReadErrorLabels) }

// LoadReferences reads the references JSON at path (ReadReferences).
func LoadReferences(path string) (map[string][]string, error) {
	return loadFile(path, ReadReferences)
}

// loadFile reads the file at path with read, a .gz file decompressed on
// the way, within 1 GiB; errors name the file.
func loadFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	in, err := gzipbound.OpenFileBounded(path, defaultMaxBytes)
	if err != nil {
		return zero, err
	}
	defer in.Close()
	v, err := read(in)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// ReferenceModels is an AssessOptions.IsReference that accepts the model
// names of a comma-separated list, in any case and with spaces around
// them ignored.
func ReferenceModels(list string) func(model string) bool {
	set := map[string]bool{}
	for _, m := range strings.Split(list, ",") {
		if m = strings.ToLower(strings.TrimSpace(m)); m != "" {
			set[m] = true
		}
	}
	return func(model string) bool { return set[strings.ToLower(strings.TrimSpace(model))] }
}

// AssessAll assesses each scorer of jobs on pairs with opts (Assess), in
// order, calling done after each when it is not nil, and gathers the
// results into the Output for the VHED file csv, whose label column
// follows sign. It also returns each scorer's report, in jobs' order.
func AssessAll(ctx context.Context, csv string, pairs []Pair, sign LabelSign, jobs []NamedScorer, opts AssessOptions, done func()) (Output, []AssessReport, error) {
	out := Output{CSV: csv, Rows: len(pairs), LabelSign: sign.String(), Gap: "|rank_norm|", Split: "Ω^{" + JoinInts(opts.Union) + "}"}
	if opts.RawGap {
		out.Gap = "|avg_rank_base − avg_rank_comp|"
	}
	if opts.SplitAllPairs {
		out.Split = "all pairs"
	}
	var reports []AssessReport
	for _, j := range jobs {
		rep, err := Assess(ctx, pairs, j.Scorer, opts)
		if err != nil {
			return Output{}, nil, fmt.Errorf("%s: %w", j.Name, err)
		}
		if done != nil {
			done()
		}
		out.HumanTies = rep.HumanTies
		out.Scorers = append(out.Scorers, NewScorerOutput(j.Name, j.Source, rep, j.Errors))
		reports = append(reports, rep)
	}
	if b := opts.Bootstrap; opts.Intervals {
		out.Bootstrap = &BootstrapOutput{Resamples: b.Resamples, Confidence: b.Confidence, Seed: b.Seed}
	}
	return out, reports, nil
}
