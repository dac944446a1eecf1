package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// clipTokenizerDir is the full OpenAI BPE vocabulary shipped with the
// encoders tests (the e2e CLIP folder holds only the model).
const clipTokenizerDir = "../../testdata/encoders/fixtures/tokenizers/clip_full"

// pythonJSON reads JSON written by Python's json.dump (NaN becomes null).
func pythonJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.ReplaceAll(string(data), ": NaN", ": null"))
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func within(got, want *float64) bool {
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	return math.Abs(*got-*want) <= 1e-5*math.Max(1, math.Abs(*want))
}

type cmdGroovistOut struct {
	Theta   *float64 `json:"theta"`
	Mean    *float64 `json:"mean"`
	Stories []struct {
		ID       string              `json:"id"`
		GROOViST *float64            `json:"groovist"`
		NPScores map[string]*float64 `json:"np_scores"`
		Images   []struct {
			ID    string `json:"id"`
			Error string `json:"error"`
		} `json:"images"`
	} `json:"stories"`
}

// TestGroovistCommandMatchesOriginalOutputs runs the subcommand as the
// reference ran groovist.py (AESOP, the fixture's NP lists, ratings and
// pronouns) with both θs and compares with the verbatim scores_theta_*.json.
func TestGroovistCommandMatchesOriginalOutputs(t *testing.T) {
	dir := e2efixtures.Metric("groovist")
	t.Logf("fixtures: %s", dir)
	var expected map[string]json.RawMessage
	pythonJSON(t, filepath.Join(dir, "expected.json"), &expected)
	checked := 0
	for _, run := range []struct{ thetaKey, file string }{{"theta_preset", "scores_theta_preset.json"}, {"theta_est", "scores_theta_est.json"}} {
		var theta float64
		if err := json.Unmarshal(expected[run.thetaKey], &theta); err != nil {
			t.Fatal(err)
		}
		for _, thetaArg := range []string{strconv.FormatFloat(theta, 'g', -1, 64), "estimate"} {
			if run.thetaKey == "theta_preset" && thetaArg == "estimate" {
				continue
			}
			var stdout, stderr bytes.Buffer
			args := []string{"groovist", "-nps", filepath.Join(dir, "nphrases.json"), "-model", e2efixtures.Metric("clip"),
				"-tokenizer", clipTokenizerDir, "-entities", filepath.Join(dir, "aesop_entities.csv"),
				"-crops", filepath.Join(dir, "aesop-entities"), "-dataset", "aesop", "-theta", thetaArg,
				"-ratings", filepath.Join(dir, "concreteness_ratings.csv"), "-pronouns", filepath.Join(dir, "all_pronouns.txt")}
			if code := runMain(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var got cmdGroovistOut
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if !within(got.Theta, &theta) {
				t.Errorf("-theta %s: theta %v, want %v", thetaArg, got.Theta, theta)
			}
			var want map[string]struct {
				Groovist *float64            `json:"groovist"`
				NPScores map[string]*float64 `json:"NP_scores"`
			}
			pythonJSON(t, filepath.Join(dir, run.file), &want)
			if len(got.Stories) != len(want) {
				t.Fatalf("%d stories, %s has %d", len(got.Stories), run.file, len(want))
			}
			for _, s := range got.Stories {
				w := want[s.ID]
				if !within(s.GROOViST, w.Groovist) {
					t.Errorf("%s -theta %s: %s groovist %v, want %v", run.file, thetaArg, s.ID, s.GROOViST, w.Groovist)
				}
				checked++
				if len(s.NPScores) != len(w.NPScores) {
					t.Errorf("%s: %s has %d NP scores, want %d", run.file, s.ID, len(s.NPScores), len(w.NPScores))
				}
				for np, v := range w.NPScores {
					if !within(s.NPScores[np], v) {
						t.Errorf("%s: %s %q = %v, want %v", run.file, s.ID, np, s.NPScores[np], v)
					}
					checked++
				}
			}
		}
	}
	t.Logf("scores_theta_*.json: %d values checked through the command", checked)
}

func TestGroovistCommandCSV(t *testing.T) {
	dir := e2efixtures.Metric("groovist")
	var stdout, stderr bytes.Buffer
	args := []string{"groovist", "-nps", filepath.Join(dir, "nphrases.json"), "-model", e2efixtures.Metric("clip"),
		"-tokenizer", clipTokenizerDir, "-entities", filepath.Join(dir, "aesop_entities.csv"),
		"-crops", filepath.Join(dir, "aesop-entities"), "-dataset", "aesop", "-theta", "aesop", "-format", "csv"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var want map[string]struct {
		Groovist *float64 `json:"groovist"`
	}
	pythonJSON(t, filepath.Join(dir, "scores_theta_preset.json"), &want)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != len(want)+3 {
		t.Fatalf("%d CSV lines, want header + %d stories + 2 means", len(lines), len(want))
	}
	for _, line := range lines[1 : 1+len(want)] {
		f := strings.Split(line, ",")
		w, ok := want[f[0]]
		if !ok {
			t.Fatalf("unknown id in %q", line)
		}
		var got *float64
		if f[1] != "NaN" {
			x, _ := strconv.ParseFloat(f[1], 64)
			got = &x
		}
		if !within(got, w.Groovist) {
			t.Errorf("%s: %v, want %v", f[0], f[1], w.Groovist)
		}
	}
}

func TestGroovistCommandRejectsBadInput(t *testing.T) {
	dir := e2efixtures.Metric("groovist")
	tmp := t.TempDir()
	badNPs := filepath.Join(tmp, "nps.json")
	if err := os.WriteFile(badNPs, []byte(`{"s1": ["a dog", 3]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	badRatings := filepath.Join(tmp, "ratings.csv")
	if err := os.WriteFile(badRatings, []byte("Word;Conc.M\ndog;4.9\ncat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(nps, crops, tok string) []string {
		return []string{"groovist", "-nps", nps, "-model", e2efixtures.Metric("clip"), "-tokenizer", tok,
			"-entities", filepath.Join(dir, "aesop_entities.csv"), "-crops", crops, "-dataset", "aesop"}
	}
	good := filepath.Join(dir, "nphrases.json")
	crops := filepath.Join(dir, "aesop-entities")
	for _, c := range []struct {
		args []string
		want string
	}{
		{base(badNPs, crops, clipTokenizerDir), "not a list of strings"},
		{base(good, filepath.Join(tmp, "nowhere"), clipTokenizerDir), "crops folder"},
		{base(good, crops, tmp), "-tokenizer"},
		{append(base(good, crops, clipTokenizerDir), "-ratings", badRatings), "line 3"},
		{append(base(good, crops, clipTokenizerDir), "-theta", "high"), "-theta"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(c.args, &stdout, &stderr); code == 0 {
			t.Errorf("%q: exit 0", c.args)
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: stderr %q lacks %q", c.args, stderr.String(), c.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: partial output %q", c.args, stdout.String())
		}
	}
}

// TestGroovistCommandFromText extracts phrases from the stories' texts and
// reports P for each story with a text, and the per-phrase diagnostics.
func TestGroovistCommandFromText(t *testing.T) {
	dir := e2efixtures.Metric("groovist")
	var texts map[string]string
	pythonJSON(t, filepath.Join(dir, "stories.json"), &texts)
	var stdout, stderr bytes.Buffer
	args := []string{"groovist", "-stories", filepath.Join(dir, "stories.json"), "-model", e2efixtures.Metric("clip"),
		"-tokenizer", clipTokenizerDir, "-entities", filepath.Join(dir, "aesop_entities.csv"),
		"-crops", filepath.Join(dir, "aesop-entities"), "-dataset", "aesop", "-details", "-nouns"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got struct {
		Stories []struct {
			ID           string   `json:"id"`
			NPProportion *float64 `json:"np_proportion"`
			NPs          []struct {
				NP        string    `json:"np"`
				Alignment []float64 `json:"alignment"`
				BestImage int       `json:"best_image"`
			} `json:"nps"`
		} `json:"stories"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Stories) != len(texts) {
		t.Fatalf("%d stories, stories.json has %d", len(got.Stories), len(texts))
	}
	for _, s := range got.Stories {
		if s.NPProportion == nil || *s.NPProportion <= 0 {
			t.Errorf("%s: P = %v", s.ID, s.NPProportion)
		}
		for _, np := range s.NPs {
			if strings.Contains(np.NP, " ") {
				t.Errorf("%s: -nouns gave the phrase %q", s.ID, np.NP)
			}
			if len(np.Alignment) != 3 || np.BestImage < 0 || np.BestImage > 2 {
				t.Errorf("%s %q: alignment %v best %d", s.ID, np.NP, np.Alignment, np.BestImage)
			}
		}
	}
}
