package vrank

import (
	"context"
	"math/rand"
	"testing"
)

// TestPredictWithProgress checks that PredictWith gives Predict's gaps and
// reports every pair, batch by batch, ending at the total.
func TestPredictWithProgress(t *testing.T) {
	m := tinyModel(t, 9)
	s1, s2 := storyPairs(rand.New(rand.NewSource(5)), 2*predictBatch+3)
	want, err := m.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	var reports [][2]int
	got, err := m.PredictWith(context.Background(), s1, s2, PredictOptions{Progress: func(done, total int) {
		reports = append(reports, [2]int{done, total})
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pair %d: PredictWith %v, Predict %v", i, got[i], want[i])
		}
	}
	wantReports := [][2]int{{predictBatch, len(s1)}, {2 * predictBatch, len(s1)}, {len(s1), len(s1)}}
	if len(reports) != len(wantReports) {
		t.Fatalf("progress reports %v, want %v", reports, wantReports)
	}
	for i := range reports {
		if reports[i] != wantReports[i] {
			t.Fatalf("progress reports %v, want %v", reports, wantReports)
		}
	}
}
