package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

func init() {
	register(command{
		name:    "correlate",
		summary: "Pearson, Spearman, Kendall τ-b/τ-c (and point-biserial) of two CSV columns, as SciPy",
		run:     runCorrelate,
	})
}

// correlateOutput is the JSON the correlate subcommand prints; field order
// is output order.
type correlateOutput struct {
	N             int          `json:"n"`
	Pearson       correlateR   `json:"pearson"`
	Spearman      correlateRho `json:"spearman"`
	KendallB      correlateTau `json:"kendall_b"`
	KendallC      correlateTau `json:"kendall_c"`
	PointBiserial *correlateR  `json:"pointbiserial,omitempty"`
	// Bootstrap holds percentile intervals when -bootstrap is given.
	Bootstrap *correlateBootstrap `json:"bootstrap,omitempty"`
}

// correlateBootstrap is the optional "bootstrap" member: the settings and
// one percentile interval per coefficient (point-biserial r is Pearson's r,
// so its interval is Pearson's).
type correlateBootstrap struct {
	Resamples  int               `json:"resamples"`
	Confidence float64           `json:"confidence"`
	Seed       uint64            `json:"seed"`
	Pearson    correlateInterval `json:"pearson"`
	Spearman   correlateInterval `json:"spearman"`
	KendallB   correlateInterval `json:"kendall_b"`
	KendallC   correlateInterval `json:"kendall_c"`
}

type correlateInterval struct {
	Low       Float `json:"low"`
	High      Float `json:"high"`
	Undefined int   `json:"undefined"`
}

type correlateR struct {
	R Float `json:"r"`
	P Float `json:"p"`
}

type correlateRho struct {
	Rho Float `json:"rho"`
	P   Float `json:"p"`
}

type correlateTau struct {
	Tau Float `json:"tau"`
	P   Float `json:"p"`
}

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
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if err := requireFlags(fs, "in", "x", "y"); err != nil {
		return err
	}
	if *resamples < 0 {
		return fmt.Errorf("-bootstrap: %d resamples; want 0 (none) or more", *resamples)
	}
	if !(*confidence > 0 && *confidence < 1) {
		return fmt.Errorf("-confidence %v: want a coverage strictly between 0 and 1, such as 0.95", *confidence)
	}
	data, err := readFile(*in)
	if err != nil {
		return err
	}
	if strings.HasSuffix(*in, ".gz") {
		if data, err = gunzipBounded(data); err != nil {
			return fmt.Errorf("%s: gzip: %w", *in, err)
		}
	}
	cols, err := correlation.ReadColumns(bytes.NewReader(data), *xCol, *yCol)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	sum, err := correlation.Summarize(cols[0], cols[1])
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	out := correlateSummary(sum)
	if *resamples > 0 {
		ctx, stop := interruptContext()
		defer stop()
		bar := newProgress(stderr, 4**resamples, "resamples")
		opts := correlation.BootstrapOptions{Resamples: *resamples, Confidence: *confidence, Seed: *seed, Progress: bar.Add}
		iv, err := correlation.BootstrapSummary(ctx, cols[0], cols[1], opts)
		bar.Finish()
		if err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
		out.Bootstrap = correlateBootstrapOutput(iv, opts)
	}
	if *format == formatCSV {
		return out.writeCSV(stdout)
	}
	return writeJSON(stdout, out)
}

// writeCSV prints one row per coefficient: its value and p-value and, with
// -bootstrap, its interval (the point-biserial r shares Pearson's).
func (o *correlateOutput) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"coefficient", "n", "value", "p"}
	if o.Bootstrap != nil {
		header = append(header, "low", "high", "undefined", "resamples", "confidence", "seed")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	row := func(name string, v, p Float, iv *correlateInterval) error {
		rec := []string{name, strconv.Itoa(o.N), formatFloat(float64(v)), formatFloat(float64(p))}
		if b := o.Bootstrap; b != nil {
			rec = append(rec, formatFloat(float64(iv.Low)), formatFloat(float64(iv.High)), strconv.Itoa(iv.Undefined),
				strconv.Itoa(b.Resamples), formatFloat(b.Confidence), strconv.FormatUint(b.Seed, 10))
		}
		return cw.Write(rec)
	}
	var pearson, spearman, tauB, tauC *correlateInterval
	if b := o.Bootstrap; b != nil {
		pearson, spearman, tauB, tauC = &b.Pearson, &b.Spearman, &b.KendallB, &b.KendallC
	}
	if err := row("pearson", o.Pearson.R, o.Pearson.P, pearson); err != nil {
		return err
	}
	if err := row("spearman", o.Spearman.Rho, o.Spearman.P, spearman); err != nil {
		return err
	}
	if err := row("kendall_b", o.KendallB.Tau, o.KendallB.P, tauB); err != nil {
		return err
	}
	if err := row("kendall_c", o.KendallC.Tau, o.KendallC.P, tauC); err != nil {
		return err
	}
	if pb := o.PointBiserial; pb != nil {
		if err := row("pointbiserial", pb.R, pb.P, pearson); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// correlateSummary is the output of the coefficients of s.
func correlateSummary(s correlation.Summary) correlateOutput {
	out := correlateOutput{
		N:        s.N,
		Pearson:  correlateR{R: Float(s.Pearson.Statistic), P: Float(s.Pearson.P)},
		Spearman: correlateRho{Rho: Float(s.Spearman.Statistic), P: Float(s.Spearman.P)},
		KendallB: correlateTau{Tau: Float(s.KendallB.Statistic), P: Float(s.KendallB.P)},
		KendallC: correlateTau{Tau: Float(s.KendallC.Statistic), P: Float(s.KendallC.P)},
	}
	if pb := s.PointBiserial; pb != nil {
		out.PointBiserial = &correlateR{R: Float(pb.Statistic), P: Float(pb.P)}
	}
	return out
}

// correlateBootstrapOutput is the "bootstrap" member for iv.
func correlateBootstrapOutput(iv correlation.SummaryIntervals, opts correlation.BootstrapOptions) *correlateBootstrap {
	out := func(iv correlation.Interval) correlateInterval {
		return correlateInterval{Low: Float(iv.Low), High: Float(iv.High), Undefined: iv.Undefined}
	}
	return &correlateBootstrap{Resamples: opts.Resamples, Confidence: opts.Confidence, Seed: opts.Seed,
		Pearson: out(iv.Pearson), Spearman: out(iv.Spearman), KendallB: out(iv.KendallB), KendallC: out(iv.KendallC)}
}
