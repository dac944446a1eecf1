package correlation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/correlation"
)

// ExampleSummaryReport_WriteCSV prints the coefficients of ExampleSummarize
// (0.9835, 0.9820, 0.9449, 0.9766 there) as the storyeval correlate
// command does with -format csv: shortest round-trip form.
func ExampleSummaryReport_WriteCSV() {
	human := []float64{4, 2, 5, 3, 1, 4, 2, 5}
	metric := []float64{0.71, 0.42, 0.80, 0.55, 0.30, 0.62, 0.48, 0.77}
	s, err := correlation.Summarize(human, metric)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := (correlation.SummaryReport{Summary: s}).WriteCSV(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// coefficient,n,value,p
	// pearson,8,0.9835496743595902,1.0992331390824547e-05
	// spearman,8,0.9819805060619657,1.4430449972093964e-05
	// kendall_b,8,0.944911182523068,0.0015428402949769213
	// kendall_c,8,0.9765625,0.0015428402949769213
}

// TestSummaryReportJSON checks WriteJSON's members, their order and the
// values against the Summary, the intervals and the options, with and
// without the point-biserial r (x of 0 and 1) and the bootstrap.
func TestSummaryReportJSON(t *testing.T) {
	x := []float64{0, 1, 0, 1, 1, 0, 1, 0, 1, 1}
	y := []float64{0.2, 0.9, 0.4, 0.7, 0.8, 0.1, 0.6, 0.5, 0.95, 0.3}
	s, err := correlation.Summarize(x, y)
	if err != nil {
		t.Fatal(err)
	}
	opts := correlation.BootstrapOptions{Resamples: 200, Confidence: 0.9, Seed: 7}
	iv, err := correlation.BootstrapSummary(context.Background(), x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []correlation.SummaryReport{{Summary: s}, {Summary: s, Intervals: &iv, Bootstrap: opts}} {
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		keys := []string{`"n": 10`, `"pearson": {`, `"spearman": {`, `"kendall_b": {`, `"kendall_c": {`, `"pointbiserial": {`}
		if r.Intervals != nil {
			keys = append(keys, `"bootstrap": {`, `"resamples": 200`, `"confidence": 0.9`, `"seed": 7`)
		} else if strings.Contains(text, "bootstrap") {
			t.Errorf("bootstrap member without intervals:\n%s", text)
		}
		last := -1
		for _, k := range keys {
			i := strings.Index(text, k)
			if i <= last {
				t.Errorf("%s at %d, after %d: want it after the previous member\n%s", k, i, last, text)
			}
			last = i
		}
		var got struct {
			Pearson       struct{ R, P float64 }
			Spearman      struct{ Rho, P float64 }
			KendallB      struct{ Tau, P float64 } `json:"kendall_b"`
			PointBiserial struct{ R, P float64 }
			Bootstrap     *struct {
				KendallC struct {
					Low, High float64
					Undefined int
				} `json:"kendall_c"`
			}
		}
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Pearson.R != s.Pearson.Statistic || got.Spearman.Rho != s.Spearman.Statistic || got.KendallB.P != s.KendallB.P ||
			got.PointBiserial.R != s.PointBiserial.Statistic || got.PointBiserial.P != s.PointBiserial.P {
			t.Errorf("coefficients %+v, want the Summary's %+v", got, s)
		}
		if b := got.Bootstrap; b != nil && (b.KendallC.Low != iv.KendallC.Low || b.KendallC.High != iv.KendallC.High || b.KendallC.Undefined != iv.KendallC.Undefined) {
			t.Errorf("kendall_c interval %+v, want %+v", b.KendallC, iv.KendallC)
		}
	}
}

// TestSummaryReportCSVIntervals checks the CSV columns with intervals:
// the point-biserial row carries Pearson's interval.
func TestSummaryReportCSVIntervals(t *testing.T) {
	r := correlation.SummaryReport{
		Summary: correlation.Summary{N: 3, Pearson: correlation.Result{Statistic: 0.5, P: math.NaN()},
			PointBiserial: &correlation.Result{Statistic: 0.5, P: 0.25}},
		Intervals: &correlation.SummaryIntervals{Pearson: correlation.Interval{Low: -0.25, High: 0.75, Undefined: 2}},
		Bootstrap: correlation.BootstrapOptions{Resamples: 10, Confidence: 0.95, Seed: 1},
	}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := "coefficient,n,value,p,low,high,undefined,resamples,confidence,seed\n" +
		"pearson,3,0.5,NaN,-0.25,0.75,2,10,0.95,1\n" +
		"spearman,3,0,0,0,0,0,10,0.95,1\n" +
		"kendall_b,3,0,0,0,0,0,10,0.95,1\n" +
		"kendall_c,3,0,0,0,0,0,10,0.95,1\n" +
		"pointbiserial,3,0.5,0.25,-0.25,0.75,2,10,0.95,1\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	var viaWrite bytes.Buffer
	if err := r.Write(&viaWrite, true); err != nil || viaWrite.String() != want {
		t.Errorf("Write(csv): %q, %v; want WriteCSV's", viaWrite.String(), err)
	}
}
