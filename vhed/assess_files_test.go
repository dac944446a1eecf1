package vhed

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/correlation"
)

// TestLoadAllGzip checks that LoadAll reads a .gz copy of the small CSV
// into the pairs Load reads from the plain file, with the sign the rank
// columns imply, and that its errors name the file.
func TestLoadAllGzip(t *testing.T) {
	want := vhedLoadSmall(t)
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	packed := filepath.Join(t.TempDir(), "vhed.csv.gz")
	if err := os.WriteFile(packed, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pairs, sign, err := LoadAll(packed, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pairs, want) {
		t.Errorf("LoadAll(.gz) read %d pairs unlike Load's %d", len(pairs), len(want))
	}
	if _, plainSign, err := LoadAll(vhedSmallPath, ReadOptions{}); err != nil || plainSign != sign {
		t.Errorf("sign %v (.gz) and %v (plain), %v", sign, plainSign, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("a,b\n1,2\n"), 0o644)
	if _, _, err := LoadAll(bad, ReadOptions{}); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("LoadAll(bad.csv): %v, want an error naming the file", err)
	}
}

// TestReferenceModels checks the case- and space-insensitive model set.
func TestReferenceModels(t *testing.T) {
	is := ReferenceModels(" Human, gt,,ref ")
	for model, want := range map[string]bool{"human": true, "HUMAN ": true, "GT": true, "ref": true, "": false, "modelA": false} {
		if is(model) != want {
			t.Errorf("%q: %v, want %v", model, !want, want)
		}
	}
}

// TestAssessAll checks that AssessAll gives each scorer's Assess report,
// in order, and the Output's settings: the gap and split it names and the
// bootstrap recorded only with intervals.
func TestAssessAll(t *testing.T) {
	pairs := vhedLoadSmall(t)
	gaps := make(AssessFixedGaps, len(pairs))
	for i, p := range pairs {
		gaps[i] = -p.Gap // every order wrong
	}
	jobs := []NamedScorer{{Name: "right", Source: "s1", Scorer: AssessFixedGaps(vhedGaps(pairs))}, {Name: "wrong", Source: "s2", Scorer: gaps}}
	opts := AssessOptions{Union: []int{4, 5}}
	calls := 0
	out, reps, err := AssessAll(context.Background(), "v.csv", pairs, LabelSign(0), jobs, opts, func() { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(reps) != 2 || len(out.Scorers) != 2 || out.Rows != 9 || out.CSV != "v.csv" {
		t.Fatalf("%d calls, %d reports, %d scorers, %d rows", calls, len(reps), len(out.Scorers), out.Rows)
	}
	for i, j := range jobs {
		want, err := Assess(context.Background(), pairs, j.Scorer, opts)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(reps[i]) != fmt.Sprint(want) || out.Scorers[i].Name != j.Name || out.Scorers[i].Source != j.Source {
			t.Errorf("%s: report unlike Assess's", j.Name)
		}
	}
	if reps[0].Overall.Value != 1 || reps[1].Overall.Value != 0 {
		t.Errorf("accuracies %v and %v, want 1 and 0", reps[0].Overall.Value, reps[1].Overall.Value)
	}
	if out.Gap != "|rank_norm|" || out.Split != "Ω^{4,5}" || out.Bootstrap != nil || out.HumanTies != reps[1].HumanTies {
		t.Errorf("output settings %q %q %v, ties %d", out.Gap, out.Split, out.Bootstrap, out.HumanTies)
	}
	opts = AssessOptions{RawGap: true, SplitAllPairs: true, Intervals: true, Bootstrap: correlation.BootstrapOptions{Resamples: 20, Confidence: 0.9, Seed: 4}}
	out, _, err = AssessAll(context.Background(), "v.csv", pairs, LabelSign(0), jobs[:1], opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Gap != "|avg_rank_base − avg_rank_comp|" || out.Split != "all pairs" || out.Bootstrap == nil || *out.Bootstrap != (BootstrapOutput{20, 0.9, 4}) {
		t.Errorf("output settings %q %q %+v", out.Gap, out.Split, out.Bootstrap)
	}
}

func vhedGaps(pairs []Pair) []float64 {
	g := make([]float64, len(pairs))
	for i, p := range pairs {
		g[i] = p.Gap
	}
	return g
}

// TestScorerFilesLoad checks the scorers of the files: a gap column, the
// metrics against the CSV's human stories or a references file, and the
// InputError of labels on gap columns and of an unknown metric.
func TestScorerFilesLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	scores := write("gaps.csv", "vrank\n-1.5\n0.5\n")
	labels := write("labels.csv", "story_id,model,e\n7,a,1\n")
	refs := write("refs.json", `{"x": ["a story"]}`)
	jobs, err := ScorerFiles{CSV: "v.csv", Scores: scores, Metrics: "bleu,rouge", RefAbsent: true}.Load(scorePairs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, j.Name+" <- "+j.Source)
	}
	want := []string{"vrank <- " + scores, "BLEU-4 <- Reference Absent, references: human stories of v.csv", "ROUGE-L <- Reference Absent, references: human stories of v.csv"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scorers %q, want %q", got, want)
	}
	if gaps, _ := jobs[0].Scorer.ScorePairs(context.Background(), scorePairs); !reflect.DeepEqual(gaps, []float64{-1.5, 0.5}) {
		t.Errorf("vrank gaps %v", gaps)
	}
	jobs, err = ScorerFiles{Metrics: "meteor", Refs: refs}.Load(scorePairs)
	if err != nil || len(jobs) != 1 || jobs[0].Source != "all references: "+refs {
		t.Errorf("meteor against %s: %+v, %v", refs, jobs, err)
	}
	var ie *InputError
	_, err = ScorerFiles{Scores: scores, Errors: labels}.Load(scorePairs)
	if !errors.As(err, &ie) || ie.Input != "errors" || !strings.HasPrefix(err.Error(), "errors "+labels+": error labels need per-story scores") {
		t.Errorf("labels on gap columns: %v", err)
	}
	_, err = ScorerFiles{Metrics: "bertscore"}.Load(scorePairs)
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "metrics: ") {
		t.Errorf("unknown metric: %v", err)
	}
	if _, err = (ScorerFiles{Scores: filepath.Join(dir, "missing.csv")}).Load(scorePairs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing scores: %v", err)
	}
}

// ExampleReferenceModels tells reference stories by their model names,
// as vhed assess -ref-models does.
func ExampleReferenceModels() {
	isRef := ReferenceModels("human,gt")
	fmt.Println(isRef("Human"), isRef(" GT "), isRef("llava"))
	// Output: true true false
}
