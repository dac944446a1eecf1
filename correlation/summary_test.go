package correlation

import (
	"context"
	"math"
	"testing"
)

// TestSummarize checks each member against its coefficient called alone,
// and the point-biserial r: present only for 0/1 x, equal to Pearson's r
// there (the definition), absent otherwise.
func TestSummarize(t *testing.T) {
	y := []float64{0.3, 0.9, 0.1, 0.5, 0.7, 0.2}
	for _, c := range []struct {
		name   string
		x      []float64
		binary bool
	}{
		{"binary x", []float64{0, 1, 0, 1, 1, 0}, true},
		{"graded x", []float64{1, 3, 2, 2, 5, 1}, false},
	} {
		s, err := Summarize(c.x, y)
		if err != nil {
			t.Fatal(err)
		}
		if s.N != len(y) {
			t.Errorf("%s: N %d", c.name, s.N)
		}
		for _, m := range []struct {
			name string
			got  Result
			coef Coefficient
		}{{"pearson", s.Pearson, Pearson}, {"spearman", s.Spearman, Spearman}, {"kendall_b", s.KendallB, KendallTauB}, {"kendall_c", s.KendallC, KendallTauC}} {
			want, err := m.coef(c.x, y)
			if err != nil {
				t.Fatal(err)
			}
			if m.got != want {
				t.Errorf("%s: %s %+v, alone %+v", c.name, m.name, m.got, want)
			}
		}
		if (s.PointBiserial != nil) != c.binary {
			t.Fatalf("%s: point-biserial %v", c.name, s.PointBiserial)
		}
		if c.binary && math.Abs(s.PointBiserial.Statistic-s.Pearson.Statistic) > 1e-15 {
			t.Errorf("%s: point-biserial r %v, Pearson r %v", c.name, s.PointBiserial.Statistic, s.Pearson.Statistic)
		}
	}
	if _, err := Summarize([]float64{1}, []float64{2}); err == nil {
		t.Error("one observation: no error")
	}
	if _, err := Summarize([]float64{1, 2}, []float64{2}); err == nil {
		t.Error("unequal lengths: no error")
	}
}

// TestBootstrapSummary checks each interval against Bootstrap called alone
// with the same options, and that Progress counts every resample.
func TestBootstrapSummary(t *testing.T) {
	x := []float64{1, 3, 2, 2, 5, 1, 4, 3}
	y := []float64{0.3, 0.9, 0.1, 0.5, 0.7, 0.2, 0.6, 0.4}
	calls := 0
	opts := BootstrapOptions{Resamples: 200, Confidence: 0.9, Seed: 7, Workers: 1, Progress: func(n int) { calls += n }}
	got, err := BootstrapSummary(context.Background(), x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4*200 {
		t.Errorf("progress counted %d resamples, want 800", calls)
	}
	opts.Progress = nil
	for _, m := range []struct {
		name string
		got  Interval
		coef Coefficient
	}{{"pearson", got.Pearson, Pearson}, {"spearman", got.Spearman, Spearman}, {"kendall_b", got.KendallB, KendallTauB}, {"kendall_c", got.KendallC, KendallTauC}} {
		want, err := Bootstrap(x, y, m.coef, opts)
		if err != nil {
			t.Fatal(err)
		}
		if m.got != want {
			t.Errorf("%s: %+v, alone %+v", m.name, m.got, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BootstrapSummary(ctx, x, y, opts); err == nil {
		t.Error("cancelled context: no error")
	}
}
