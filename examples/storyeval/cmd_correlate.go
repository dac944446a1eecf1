package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
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
	fs := flag.NewFlagSet("correlate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "CSV file with a header row of column names; .gz files are decompressed (required)")
	xCol := fs.String("x", "", "name of the first column, e.g. the human judgements (required)")
	yCol := fs.String("y", "", "name of the second column, e.g. the metric scores (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval correlate -in FILE.csv -x COLUMN -y COLUMN")
		fmt.Fprintln(stderr, "Prints n, Pearson r, Spearman rho, Kendall tau-b and tau-c with two-sided p-values")
		fmt.Fprintln(stderr, "(SciPy 1.10 semantics; null where undefined), and the point-biserial r when x holds only 0 and 1.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *in == "" || *xCol == "" || *yCol == "" {
		fs.Usage()
		return fmt.Errorf("-in, -x and -y are required")
	}
	data, err := readFile(*in)
	if err != nil {
		return err
	}
	if strings.HasSuffix(*in, ".gz") {
		if data, err = correlateGunzip(data); err != nil {
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
	return writeJSON(stdout, out)
}

// correlateGunzip decompresses a .gz input, bounded like readFile.
func correlateGunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(zr, maxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if n > maxInputBytes {
		return nil, fmt.Errorf("decompresses to more than the %d-byte limit", maxInputBytes)
	}
	return buf.Bytes(), nil
}

// correlateReadColumns parses CSV data with a header row and returns the
// values of the named columns (which may be the same). Every value must be
// a finite number: a missing judgement is an error naming its row, not a
// silently dropped pair.
func correlateReadColumns(data []byte, names ...string) ([][]float64, error) {
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
			return nil, fmt.Errorf("no column %q in the header (columns: %s)", name, strings.Join(header, ", "))
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
				return nil, fmt.Errorf("row %d, column %q: %q is not a finite number", row, names[k], field)
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
