// Command correlation validates a metric against human judgements, as a
// metric paper does: it reads two columns of a CSV and prints Pearson's r,
// Spearman's ρ, Kendall's τ-b and τ-c (and the point-biserial r of a 0/1
// column) with SciPy 1.10's p-values, and a bootstrap interval of ρ.
//
//	go run ./examples/correlation
//	go run ./examples/correlation -in ratings.csv -x human -y metric
//
// The default CSV is SciPy's golden case binary_vs_score_n12 (error labels
// against a metric's scores), shipped in correlation/testdata.
package main

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("correlation", flag.ContinueOnError)
	in := fs.String("in", "correlation/testdata/binary_vs_score_n12.csv.gz", "CSV with a header row (.gz is decompressed)")
	x := fs.String("x", "error_flag", "column of the human judgements")
	y := fs.String("y", "metric_score", "column of the metric's scores")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(*in, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
	}
	cols, err := correlation.ReadColumns(r, *x, *y)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	s, err := correlation.Summarize(cols[0], cols[1])
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	fmt.Fprintf(w, "n %d\n", s.N)
	fmt.Fprintf(w, "pearson %v p %v\n", s.Pearson.Statistic, s.Pearson.P)
	fmt.Fprintf(w, "spearman %v p %v\n", s.Spearman.Statistic, s.Spearman.P)
	fmt.Fprintf(w, "kendall_b %v p %v\n", s.KendallB.Statistic, s.KendallB.P)
	fmt.Fprintf(w, "kendall_c %v p %v\n", s.KendallC.Statistic, s.KendallC.P)
	if pb := s.PointBiserial; pb != nil {
		fmt.Fprintf(w, "pointbiserial %v p %v\n", pb.Statistic, pb.P)
	}
	// A seeded percentile bootstrap: the same seed gives the same interval.
	iv, err := correlation.BootstrapContext(context.Background(), cols[0], cols[1], correlation.Spearman,
		correlation.BootstrapOptions{Resamples: 2000, Seed: 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "spearman 95%% interval [%.4f, %.4f] over %d resamples (%d undefined)\n", iv.Low, iv.High, iv.Resamples, iv.Undefined)
	return nil
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
