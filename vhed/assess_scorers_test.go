package vhed

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestColumnScorers(t *testing.T) {
	k := func(id string) StoryKey { return StoryKey{StoryID: "t1", Model: id} }
	cols := []ScoreColumn{
		{Name: "m", Gaps: []float64{-1, 2}, Stories: map[StoryKey]float64{k("a"): 1, k("b"): 2, k("c"): 3, k("d"): 4}},
	}
	labels := []ErrorLabels{{Name: "repetition", Labels: map[StoryKey]bool{k("a"): false, k("b"): false, k("c"): true, k("d"): true}}}
	got, err := ColumnScorers(cols, "scores.csv", labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "m" || got[0].Source != "scores.csv" {
		t.Fatalf("%+v", got)
	}
	gaps, err := got[0].Scorer.ScorePairs(context.Background(), make([]Pair, 2))
	if err != nil || !reflect.DeepEqual(gaps, []float64{-1, 2}) {
		t.Errorf("gaps %v %v, want the column's", gaps, err)
	}
	// Pearson r of (1,2,3,4) with (0,0,1,1) by hand: Σ dx·dy = 2,
	// Σ dx² = 5, Σ dy² = 1, so r = 2/√5.
	e := got[0].Errors
	if len(e) != 1 || e[0].Error != "repetition" || e[0].Stories != 4 || math.Abs(e[0].Result.Statistic-2/math.Sqrt(5)) > 1e-15 {
		t.Errorf("error correlations %+v, want r = 2/√5 over 4 stories", e)
	}
	cols[0].Stories = nil
	if _, err := ColumnScorers(cols, "gaps.csv", labels); err == nil || !strings.Contains(err.Error(), "per-story scores (columns story_id and model) in gaps.csv") {
		t.Errorf("labels with a file of gaps: %v", err)
	}
	if got, err := ColumnScorers(cols, "gaps.csv", nil); err != nil || got[0].Errors != nil {
		t.Errorf("no labels: %+v %v", got, err)
	}
}

func TestMetricScorers(t *testing.T) {
	refs := map[string][]string{"1,2": {"a story"}}
	got, err := MetricScorers("bleu, rouge", refs, "refs.json", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Source != "Reference Absent, references: refs.json" {
		t.Fatalf("%+v", got)
	}
	if ra, ok := got[1].Scorer.(RefAbsentScorer); !ok || ra.Metric.Name() != got[1].Name || !reflect.DeepEqual(ra.References, refs) {
		t.Errorf("rouge: %#v", got[1].Scorer)
	}
	got, err = MetricScorers("cider", refs, "refs.json", false)
	if _, ok := got[0].Scorer.(AssessRefScorer); err != nil || !ok || got[0].Source != "all references: refs.json" {
		t.Errorf("all references: %+v %v", got, err)
	}
	if _, err := MetricScorers("bleu,spice", refs, "", true); err == nil || !strings.Contains(err.Error(), "spice") {
		t.Errorf("unknown metric: %v", err)
	}
}
