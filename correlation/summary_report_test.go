package correlation

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
)

// TestNewSummaryReport checks that the report holds what Summarize and
// BootstrapSummary give on their own, intervals only with resamples, and
// passes on their errors.
func TestNewSummaryReport(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	y := []float64{2, 1, 4, 3, 6, 8, 5, 7}
	sum, err := Summarize(x, y)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewSummaryReport(context.Background(), x, y, BootstrapOptions{})
	if err != nil || !reflect.DeepEqual(r.Summary, sum) || r.Intervals != nil {
		t.Errorf("no resamples: %+v, %v; want the summary %+v without intervals", r, err, sum)
	}
	opts := BootstrapOptions{Resamples: 200, Confidence: 0.9, Seed: 3}
	iv, err := BootstrapSummary(context.Background(), x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	withProgress := opts
	withProgress.Progress = func(n int) { calls.Add(int64(n)) }
	r, err = NewSummaryReport(context.Background(), x, y, withProgress)
	if err != nil || !reflect.DeepEqual(r.Summary, sum) || r.Intervals == nil || !reflect.DeepEqual(*r.Intervals, iv) || r.Bootstrap.Resamples != 200 {
		t.Errorf("200 resamples: %+v, %v; want the summary and the intervals %+v", r, err, iv)
	}
	if calls.Load() != 4*200 {
		t.Errorf("progress counted %d resamples, want %d", calls.Load(), 4*200)
	}
	if _, err := NewSummaryReport(context.Background(), x, y[:3], opts); err == nil {
		t.Error("unequal lengths: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewSummaryReport(ctx, x, y, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
