package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/story"
)

// The command and a direct library call on the same inputs and settings
// write byte-identical scores.csv and summary.json, with either
// correction of the pairwise tests.
func TestScoreCommandEqualsLibrary(t *testing.T) {
	suitePath, ratingsPath, _, _, _ := scoreTestSuite(t)
	for flag, corr := range map[string]correlation.Correction{"holm": correlation.Holm, "bh": correlation.BenjaminiHochberg} {
		t.Run(flag, func(t *testing.T) { commandEqualsLibrary(t, suitePath, ratingsPath, flag, corr) })
	}
}

func commandEqualsLibrary(t *testing.T, suitePath, ratingsPath, flag string, corr correlation.Correction) {
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	args := []string{"score", "-in", suitePath, "-human", ratingsPath, "-out", out, "-resamples", "200", "-rounds", "500", "-seed", "5", "-correction", flag}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}

	suite, err := story.LoadSuite(suitePath, story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ratings, err := compare.OpenRatings(ratingsPath, suite)
	if err != nil {
		t.Fatal(err)
	}
	meteor, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	models, err := compare.OpenModels("", suite, compare.ModelsOptions{NoFolderNeeds: "-models DIR"})
	if err != nil {
		t.Fatal(err)
	}
	metrics := []compare.Metric{compare.BLEU(), compare.METEOR(meteor), compare.ROUGEL(), compare.CIDErD(), compare.NonRedundancy(),
		compare.Absent("stylem", []string{"OnlyStyle"}, "-stylem-table and -style")}
	for _, name := range compare.LearnedMetricNames() {
		metrics = append(metrics, models.Metric(name))
	}
	report, err := compare.Compare(t.Context(), suite, metrics, compare.Options{Resamples: 200, Rounds: 500, Seed: 5, Ratings: ratings, Correction: corr})
	if err != nil {
		t.Fatal(err)
	}
	var scores, summary bytes.Buffer
	if err := report.WriteScoresCSV(&scores); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteSummaryJSON(&summary); err != nil {
		t.Fatal(err)
	}
	if report.Summary.PairCorrection.Method != corr.String() {
		t.Errorf("correction %q, want %q", report.Summary.PairCorrection.Method, corr)
	}
	for name, lib := range map[string][]byte{"scores.csv": scores.Bytes(), "summary.json": summary.Bytes()} {
		cmd, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(cmd, lib) {
			t.Errorf("%s: the command's %d bytes differ from the library's %d", name, len(cmd), len(lib))
		}
		t.Logf("%s: %d bytes, identical", name, len(cmd))
	}
}
