package compare

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/story"
)

// testSuite is two sequences with references and three systems.
func testSuite(t *testing.T) *story.Suite {
	t.Helper()
	s, err := story.ParseSuite([]byte(`{"systems": ["a", "b", "c"], "sequences": {
		"1": {"references": ["a dog ran in the park . it was happy ."], "stories": {"a": "a dog ran in the park . the dog was happy .", "b": "a cat sat . a cat sat .", "c": "the park ."}},
		"2": {"references": ["we went to the beach . the sun was out ."], "stories": {"a": "we went to the beach . the sun was hot .", "b": "we went . we went .", "c": "sun ."}}}}`), "test", story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stepMetric reports its progress in steps and returns constant columns.
type stepMetric struct {
	spec
	steps int
}

func (m stepMetric) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	for i := range m.steps + 1 {
		in.Progress(i, m.steps)
	}
	return perSystem(ctx, in, func(sys string, progress func(int, int)) ([]Column, error) {
		progress(1, 2)
		return []Column{newColumn(m.columns[0], sys, in.Suite.Len())}, nil
	})
}

// Progress counts a unit per story and system for each metric and a unit
// per column and system for the summary, named by the metric's columns;
// a metric's own report lands in its share and never moves backwards
// within it.
func TestCompareProgress(t *testing.T) {
	s := testSuite(t)
	var got []Progress
	_, err := Compare(t.Context(), s, []Metric{
		stepMetric{spec{name: "x", columns: []string{"X"}}, 3},
		Absent("y", []string{"Y"}, "nothing"),
		stepMetric{spec{name: "z", columns: []string{"Z"}}, 2},
	}, Options{Resamples: 5, Rounds: 5, Progress: func(p Progress) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	// 2 metrics × 3 systems × 2 stories, then 2 columns × 3 systems.
	const share, total = 6, 2*6 + 2*3
	want := []Progress{
		{"X", 0, total}, {"X", 0, total}, {"X", 2, total}, {"X", 4, total}, {"X", 6, total}, // the metric's own steps of 3
		{"X", 1, total}, {"X", 2, total}, {"X", 3, total}, {"X", 4, total}, {"X", 5, total}, {"X", 6, total}, // per system: half, then whole
		{"Z", share, total}, {"Z", share, total}, {"Z", share + 3, total}, {"Z", share + 6, total},
		{"Z", share + 1, total}, {"Z", share + 2, total}, {"Z", share + 3, total}, {"Z", share + 4, total}, {"Z", share + 5, total}, {"Z", share + 6, total},
	}
	for i := range 6 {
		want = append(want, Progress{"summary", 2*share + i + 1, total})
	}
	if len(got) != len(want) {
		t.Fatalf("%d progress calls %v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A cancelled context stops the run with its error.
func TestCompareCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Compare(ctx, testSuite(t), []Metric{BLEU(), NonRedundancy()}, Options{Resamples: 10, Rounds: 10})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
}

// badMetric returns the wrong columns.
type badMetric struct{ spec }

func (m badMetric) Score(context.Context, *Inputs) ([]Column, error) {
	return []Column{{Name: "other"}}, nil
}

// A metric that returns other columns than it names, an Absent metric
// called directly and bad settings are errors naming what is wrong.
func TestCompareErrors(t *testing.T) {
	s := testSuite(t)
	for _, c := range []struct {
		metrics []Metric
		opts    Options
		want    string
	}{
		{[]Metric{badMetric{spec{name: "bad", columns: []string{"B"}}}}, Options{}, `bad returned column "other", want "B"`},
		{[]Metric{BLEU()}, Options{Confidence: 1.5}, "confidence 1.5 is not in (0, 1)"},
		{[]Metric{BLEU()}, Options{Rounds: -1}, "must be at least 1"},
	} {
		_, err := Compare(t.Context(), s, c.metrics, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
	if _, err := Absent("vg", []string{"RoViST-VG"}, "a models folder").Score(t.Context(), nil); err == nil || err.Error() != "vg needs a models folder" {
		t.Errorf("Absent.Score: %v", err)
	}
}

// The n-gram metrics share one computation per system: BLEU, ROUGE-L and
// CIDEr-D given together or alone give the same scores, and a suite
// without references makes them unavailable.
func TestCompareNgramShared(t *testing.T) {
	s := testSuite(t)
	all, err := Compare(t.Context(), s, []Metric{BLEU(), ROUGEL(), CIDErD()}, Options{Resamples: 5, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range []Metric{BLEU(), ROUGEL(), CIDErD()} {
		one, err := Compare(t.Context(), s, []Metric{m}, Options{Resamples: 5, Rounds: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, sys := range s.Systems() {
			for i, v := range one.Columns[0].Scores[sys] {
				if w := all.Columns[k].Scores[sys][i]; v != w || math.IsNaN(v) {
					t.Errorf("%s of %s/%d: alone %v, together %v", one.Columns[0].Name, sys, i, v, w)
				}
			}
		}
	}
	noRefs, err := story.ParseSuite([]byte(`{"sequences": {"1": {"stories": {"a": "a dog ran .", "b": "a cat sat ."}}}}`), "test", story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compare(t.Context(), noRefs, []Metric{BLEU(), NonRedundancy()}, Options{Resamples: 5, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Columns) != 1 || r.Columns[0].Name != "RoViST-NR" || len(r.Summary.Unavailable) != 1 || r.Summary.Unavailable[0] != (Unavailable{"BLEU-4", needsReferences}) {
		t.Errorf("columns %d, unavailable %+v", len(r.Columns), r.Summary.Unavailable)
	}
}
