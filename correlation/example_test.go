package correlation_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

// Human ratings (1–5 Likert) of eight stories and a metric's scores.
var (
	human  = []float64{4, 2, 5, 3, 1, 4, 2, 5}
	metric = []float64{0.71, 0.42, 0.80, 0.55, 0.30, 0.62, 0.48, 0.77}
	other  = []float64{0.52, 0.61, 0.70, 0.40, 0.45, 0.66, 0.38, 0.59}
)

func ExamplePearson() {
	res, err := correlation.Pearson(human, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("r = %.4f, p = %.2g\n", res.Statistic, res.P)
	// Output: r = 0.9835, p = 1.1e-05
}

func ExampleSpearman() {
	res, err := correlation.Spearman(human, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("rho = %.4f, p = %.2g\n", res.Statistic, res.P)
	// Output: rho = 0.9820, p = 1.4e-05
}

func ExampleKendall() {
	// τ-b with the p-value forced to the normal approximation.
	res, err := correlation.Kendall(human, metric, correlation.KendallOptions{
		Variant: correlation.TauB,
		Method:  correlation.KendallAsymptotic,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tau-b = %.4f, p = %.3f\n", res.Statistic, res.P)
	// Output: tau-b = 0.9449, p = 0.002
}

func ExampleKendallTauB() {
	res, err := correlation.KendallTauB(human, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tau-b = %.4f, p = %.3f\n", res.Statistic, res.P)
	// Output: tau-b = 0.9449, p = 0.002
}

func ExampleKendallTauC() {
	res, err := correlation.KendallTauC(human, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tau-c = %.4f, p = %.3f\n", res.Statistic, res.P)
	// Output: tau-c = 0.9766, p = 0.002
}

func ExamplePointBiserial() {
	// Whether annotators flagged an error in each story, against the metric.
	flagged := []bool{false, true, false, true, true, false, true, false}
	res, err := correlation.PointBiserial(flagged, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("r_pb = %.4f, p = %.3f\n", res.Statistic, res.P)
	// Output: r_pb = -0.8710, p = 0.005
}

func ExampleResult_Defined() {
	constant := []float64{3, 3, 3, 3, 3, 3, 3, 3}
	res, err := correlation.Spearman(constant, metric)
	fmt.Println(res.Defined(), res.Statistic, err)
	// Output: false NaN <nil>
}

func ExampleBootstrap() {
	iv, err := correlation.Bootstrap(human, metric, correlation.Spearman, correlation.BootstrapOptions{
		Resamples: 2000,
		Seed:      1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("rho = %.3f, 95%% CI [%.3f, %.3f], %d undefined resamples\n", iv.Estimate, iv.Low, iv.High, iv.Undefined)
	// Output: rho = 0.982, 95% CI [0.899, 1.000], 0 undefined resamples
}

func ExampleWilliams() {
	// Does metric correlate with the humans significantly better than other?
	res, err := correlation.Williams(human, metric, other, correlation.Pearson)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("r12 = %.3f, r13 = %.3f, r23 = %.3f: t(%d) = %.3f, one-sided p = %.4f\n",
		res.R12, res.R13, res.R23, res.DF, res.T, res.P)
	// Output: r12 = 0.984, r13 = 0.633, r23 = 0.547: t(5) = 3.657, one-sided p = 0.0073
}

func ExampleWilliamsFromCorrelations() {
	// Steiger's (1980) example: n = 103, r12 = .5, r13 = .4, r23 = .1.
	res, err := correlation.WilliamsFromCorrelations(0.5, 0.4, 0.1, 103)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("t(%d) = %.4f, two-sided p = %.4f\n", res.DF, res.T, res.PTwoSided)
	// Output: t(100) = 0.8913, two-sided p = 0.3749
}

func ExampleBootstrapContext() {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	y := []float64{1.5, 1.9, 3.2, 3.8, 5.1, 6.4, 6.9, 8.3}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as Ctrl-C would: the bootstrap stops before its first resample
	_, err := correlation.BootstrapContext(ctx, x, y, correlation.Pearson, correlation.BootstrapOptions{Resamples: 1000})
	fmt.Println(err)
	// Output: context canceled
}

// ExampleSummarize reads judgements and scores from a CSV, as the
// storyeval correlate command does, and prints every coefficient (the
// same values as the examples of Pearson, Spearman and KendallTauB/C).
func ExampleSummarize() {
	csv := "story,human,metric\n" +
		"s1,4,0.71\ns2,2,0.42\ns3,5,0.80\ns4,3,0.55\ns5,1,0.30\ns6,4,0.62\ns7,2,0.48\ns8,5,0.77\n"
	cols, err := correlation.ReadColumns(strings.NewReader(csv), "human", "metric")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := correlation.Summarize(cols[0], cols[1])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n = %d\n", s.N)
	fmt.Printf("Pearson r = %.4f, Spearman rho = %.4f\n", s.Pearson.Statistic, s.Spearman.Statistic)
	fmt.Printf("Kendall tau-b = %.4f, tau-c = %.4f\n", s.KendallB.Statistic, s.KendallC.Statistic)
	fmt.Println("point-biserial:", s.PointBiserial != nil)
	// Output:
	// n = 8
	// Pearson r = 0.9835, Spearman rho = 0.9820
	// Kendall tau-b = 0.9449, tau-c = 0.9766
	// point-biserial: false
}

// ExampleNewSummaryReport prints what 'storyeval correlate -bootstrap 500
// -seed 1 -format csv' prints on the same two columns: the four
// coefficients with p-values and percentile intervals.
func ExampleNewSummaryReport() {
	r, err := correlation.NewSummaryReport(context.Background(), human, metric, correlation.BootstrapOptions{Resamples: 500, Confidence: 0.95, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Write(os.Stdout, true); err != nil {
		log.Fatal(err)
	}
	// Output:
	// coefficient,n,value,p,low,high,undefined,resamples,confidence,seed
	// pearson,8,0.9835496743595902,1.0992331390824547e-05,0.9325972024445408,0.9980889980852585,0,500,0.95,1
	// spearman,8,0.9819805060619657,1.4430449972093964e-05,0.893010836681381,1,0,500,0.95,1
	// kendall_b,8,0.944911182523068,0.0015428402949769213,0.8416254115301732,1,0,500,0.95,1
	// kendall_c,8,0.9765625,0.0015428402949769213,0.75,0.984375,0,500,0.95,1
}
