package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/internal/demomodels"
	"github.com/storyeval/storyeval/story"
)

// learnedColumns are the columns the demonstration models must give the
// demo (it has references, so RefCLIPScore too).
var learnedColumns = []string{"RoViST-C", "RoViST-VG", "GROOViST", "CLIPScore", "RefCLIPScore", "Vrank win rate"}

// runScoreDemo runs score -demo with args into a fresh folder, with
// TMPDIR in a folder of its own that must be empty afterwards (the demo
// models are removed at exit), and returns the output folder and stderr.
func runScoreDemo(t *testing.T, args ...string) (string, string) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	if code := runMain(append([]string{"score", "-demo", "-out", out, "-resamples", "50", "-rounds", "99"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("score -demo %q: exit %d: %s", args, code, stderr.String())
	}
	if strings.Contains(stderr.String(), "skipped") {
		t.Errorf("columns skipped:\n%s", stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the demo left %d entries in TMPDIR (%s, …)", len(left), left[0].Name())
	}
	return out, stderr.String()
}

// readSummary reads summary.json of a score run.
func readSummary(t *testing.T, out string) compare.Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum compare.Summary
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// writeDemoModels writes the demo's demonstration inputs into a
// temporary folder, as score -demo does.
func writeDemoModels(t *testing.T) *demomodels.Demo {
	t.Helper()
	suite, err := story.ParseSuite(demoStories, "demo/stories.json", story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := demomodels.Write(t.TempDir(), suite)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestScoreDemoShowsEveryColumn: score -demo without -models computes
// every learned column from the demonstration models, with a finite mean
// per system, labels exactly those columns as demonstration models in
// summary.json and report.html, and says where the real models come
// from. Two runs write byte-identical scores.csv and summary.json.
func TestScoreDemoShowsEveryColumn(t *testing.T) {
	out, stderr := runScoreDemo(t)
	sum := readSummary(t, out)
	if len(sum.Unavailable) != 0 {
		t.Errorf("unavailable columns: %v", sum.Unavailable)
	}
	for _, col := range learnedColumns {
		if !slices.Contains(sum.Metrics, col) {
			t.Errorf("no %s column (columns: %v)", col, sum.Metrics)
			continue
		}
		if got := sum.Demonstration[col]; got != demomodels.DemonstrationLabel {
			t.Errorf("%s labelled %q, want %q", col, got, demomodels.DemonstrationLabel)
		}
		for _, sys := range sum.Systems {
			if st := sum.PerSystem[sys][col]; math.IsNaN(float64(st.Mean)) || math.IsInf(float64(st.Mean), 0) || st.N == 0 {
				t.Errorf("%s %s: mean %v over %d stories", col, sys, st.Mean, st.N)
			}
		}
	}
	if len(sum.Demonstration) != len(learnedColumns) {
		t.Errorf("%d columns labelled, want the %d learned ones: %v", len(sum.Demonstration), len(learnedColumns), sum.Demonstration)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Demonstration models (" + demomodels.DemonstrationLabel + "):</b> " + strings.Join(learnedColumns, ", "), `RoViST-C <span class="demo">(demo)</span>`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, want := range []string{demomodels.DemonstrationLabel, "'storyeval models -dir DIR'", "'storyeval score -demo -models DIR'"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	again, _ := runScoreDemo(t)
	for _, f := range []string{"scores.csv", "summary.json"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, err := os.ReadFile(filepath.Join(again, f))
		if err != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two demo runs (%v)", f, err)
		}
	}
}

// TestScoreDemoWithModels: score -demo -models DIR scores the demo with
// DIR's models (here a copy of the demonstration models written
// elsewhere): every learned column, none labelled as demonstration models,
// and the same scores as the demo's own models.
func TestScoreDemoWithModels(t *testing.T) {
	d := writeDemoModels(t)
	withModels, stderr := runScoreDemo(t, "-models", d.Models)
	sum := readSummary(t, withModels)
	if len(sum.Demonstration) != 0 || strings.Contains(stderr, "demonstration") {
		t.Errorf("real models labelled as demonstration models: %v\n%s", sum.Demonstration, stderr)
	}
	demo := readSummary(t, func() string { out, _ := runScoreDemo(t); return out }())
	for _, col := range learnedColumns {
		for _, sys := range sum.Systems {
			if got, want := sum.PerSystem[sys][col], demo.PerSystem[sys][col]; got != want {
				t.Errorf("%s %s: %+v with -models, %+v with the demo's models", col, sys, got, want)
			}
		}
	}
}

// TestDemoModelsPassModelsCheck: `storyeval models -dir` enables every
// learned metric on the demonstration models folder.
func TestDemoModelsPassModelsCheck(t *testing.T) {
	d := writeDemoModels(t)
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"models", "-dir", d.Models, "-format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("models -dir: exit %d: %s", code, stderr.String())
	}
	var st []compare.ModelStatus
	if err := json.Unmarshal(stdout.Bytes(), &st); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(st) != len(compare.ModelsLayout()) {
		t.Fatalf("%d metrics checked, want %d", len(st), len(compare.ModelsLayout()))
	}
	for _, s := range st {
		if !s.Enabled {
			t.Errorf("%s disabled: missing %v, invalid %v", s.Metric, s.Missing, s.Invalid)
		}
	}
}
