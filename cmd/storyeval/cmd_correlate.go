package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/internal/errtext"
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
	cols, err := correlateReadColumns(data, *xCol, *yCol)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	out, err := correlateColumns(cols[0], cols[1])
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	if *resamples > 0 {
		ctx, stop := interruptContext()
		defer stop()
		bar := newProgress(stderr, 4**resamples, "resamples")
		opts := correlation.BootstrapOptions{Resamples: *resamples, Confidence: *confidence, Seed: *seed, Progress: bar.Add}
		out.Bootstrap, err = correlateIntervals(ctx, cols[0], cols[1], opts)
		bar.Finish()
		if err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
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

// correlateReadColumns parses CSV data with a header row and returns the
// values of the named columns (which may be the same). Every value must be
// a finite number: a missing judgement is an error naming its row, not a
// silently dropped pair.
func correlateReadColumns(data []byte, names ...string) ([][]float64, error) {
	// Spreadsheet exports often start with a UTF-8 byte-order mark, which
	// would otherwise become part of the first column's name.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("empty CSV: no header row")
	}
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(names))
	for k, name := range names {
		idx[k] = -1
		for i, h := range header {
			if strings.TrimSpace(h) != name {
				continue
			}
			if idx[k] >= 0 {
				return nil, fmt.Errorf("column %q appears twice in the header", name)
			}
			idx[k] = i
		}
		if idx[k] < 0 {
			return nil, fmt.Errorf("no column %q in the header (columns: %s)", name, errtext.QuoteList(header))
		}
	}
	cols := make([][]float64, len(names))
	for row := 2; ; row++ { // row 1 is the header
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		for k, i := range idx {
			field := strings.TrimSpace(rec[i])
			v, err := strconv.ParseFloat(field, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d, column %q: %s is not a finite number", row, names[k], errtext.Quote(field))
			}
			cols[k] = append(cols[k], v)
		}
	}
	return cols, nil
}

// correlateColumns computes the coefficients the subcommand prints.
func correlateColumns(x, y []float64) (correlateOutput, error) {
	out := correlateOutput{N: len(x)}
	pearson, err := correlation.Pearson(x, y)
	if err != nil {
		return out, err
	}
	spearman, err := correlation.Spearman(x, y)
	if err != nil {
		return out, err
	}
	tauB, err := correlation.KendallTauB(x, y)
	if err != nil {
		return out, err
	}
	tauC, err := correlation.KendallTauC(x, y)
	if err != nil {
		return out, err
	}
	out.Pearson = correlateR{R: Float(pearson.Statistic), P: Float(pearson.P)}
	out.Spearman = correlateRho{Rho: Float(spearman.Statistic), P: Float(spearman.P)}
	out.KendallB = correlateTau{Tau: Float(tauB.Statistic), P: Float(tauB.P)}
	out.KendallC = correlateTau{Tau: Float(tauC.Statistic), P: Float(tauC.P)}
	binary := make([]bool, len(x))
	for i, v := range x {
		if v != 0 && v != 1 {
			return out, nil // not binary: no point-biserial
		}
		binary[i] = v == 1
	}
	pb, err := correlation.PointBiserial(binary, y)
	if err != nil {
		return out, err
	}
	out.PointBiserial = &correlateR{R: Float(pb.Statistic), P: Float(pb.P)}
	return out, nil
}

// correlateIntervals bootstraps the four coefficients with the same seed,
// so that they are computed on the same resamples.
func correlateIntervals(ctx context.Context, x, y []float64, opts correlation.BootstrapOptions) (*correlateBootstrap, error) {
	out := &correlateBootstrap{Resamples: opts.Resamples, Confidence: opts.Confidence, Seed: opts.Seed}
	for _, c := range []struct {
		coef correlation.Coefficient
		dst  *correlateInterval
	}{
		{correlation.Pearson, &out.Pearson},
		{correlation.Spearman, &out.Spearman},
		{correlation.KendallTauB, &out.KendallB},
		{correlation.KendallTauC, &out.KendallC},
	} {
		iv, err := correlation.BootstrapContext(ctx, x, y, c.coef, opts)
		if err != nil {
			return nil, err
		}
		*c.dst = correlateInterval{Low: Float(iv.Low), High: Float(iv.High), Undefined: iv.Undefined}
	}
	return out, nil
}
