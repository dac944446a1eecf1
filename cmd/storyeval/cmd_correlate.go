package main

import (
	"cmp"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/correlation"
)

func runCorrelate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("correlate", stderr)
	in := fs.String("in", "", "CSV file with a header row of column names; .gz files are decompressed (required)")
	xCol := fs.String("x", "", "name of the first column, e.g. the human judgements (required)")
	yCol := fs.String("y", "", "name of the second column, e.g. the metric scores (required)")
	resamples := fs.Int("bootstrap", 0, "if > 0, also print percentile bootstrap intervals from this many resamples")
	confidence := fs.Float64("confidence", correlation.DefaultConfidence, "coverage of the bootstrap intervals")
	seed := fs.Uint64("seed", 0, "seed of the bootstrap resamples")
	format := formatFlag(fs)
	setUsage(fs,
		"usage: storyeval correlate [-bootstrap N [-confidence C] [-seed S]] [-format json|csv] -in FILE.csv -x COLUMN -y COLUMN",
		"Prints n, Pearson r, Spearman rho, Kendall tau-b and tau-c with two-sided p-values",
		"(SciPy 1.10 semantics; null where undefined), and the point-biserial r when x holds only 0 and 1.",
	)
	if err := parseRequired(fs, args, format, "in", "x", "y"); err != nil {
		return err
	}
	if err := cmp.Or(errIf(*resamples < 0, "-bootstrap: %d resamples; want 0 (none) or more", *resamples),
		errIf(!(*confidence > 0 && *confidence < 1), "-confidence %v: want a coverage strictly between 0 and 1, such as 0.95", *confidence)); err != nil {
		return err
	}
	cols, err := correlation.LoadColumns(*in, *xCol, *yCol)
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	bar := newProgress(stderr, 4**resamples, "resamples")
	out, err := correlation.NewSummaryReport(ctx, cols[0], cols[1], correlation.BootstrapOptions{Resamples: *resamples, Confidence: *confidence, Seed: *seed, Progress: bar.Add})
	bar.Finish()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	return out.Write(stdout, *format == formatCSV)
}
