package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/rovist"
)

// rovistOutput decodes `storyeval rovist -format json`.
type rovistOutput struct {
	Stories []struct {
		ID string `json:"id"`
		VG *struct {
			Score *float64 `json:"score"`
			Nouns []struct {
				Noun      string   `json:"noun"`
				InGloVe   bool     `json:"in_glove"`
				IDF       *float64 `json:"idf"`
				Recall    *float64 `json:"recall"`
				BestImage int      `json:"best_image"`
			} `json:"nouns"`
			Images []struct {
				ID      string   `json:"id"`
				Listed  int      `json:"regions_listed"`
				Regions []string `json:"regions_used"`
			} `json:"images"`
		} `json:"vg"`
		C *struct {
			Score *float64 `json:"score"`
			Pairs []struct {
				Second    int      `json:"second"`
				A         string   `json:"a"`
				B         string   `json:"b"`
				Identical bool     `json:"identical"`
				Prob      *float64 `json:"prob_coherent"`
			} `json:"pairs"`
		} `json:"c"`
	} `json:"stories"`
	System struct {
		VG *float64 `json:"vg"`
		C  *float64 `json:"c"`
	} `json:"system"`
}

func runRoViSTJSON(t *testing.T, args ...string) rovistOutput {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runMain(append([]string{"rovist", "-format", "json"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("rovist %q: exit status %d, stderr: %s", args, code, stderr.String())
	}
	var out rovistOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	return out
}

// tally counts checked expected values.
type tally struct {
	t              *testing.T
	checked, fails int
}

func (c *tally) close(what string, got *float64, want any) {
	c.t.Helper()
	c.checked++
	w := math.NaN()
	if want != nil {
		w = want.(float64)
	}
	g := math.NaN()
	if got != nil {
		g = *got
	}
	ok := (math.IsNaN(w) && math.IsNaN(g)) || math.Abs(g-w) <= 1e-5*math.Max(1, math.Abs(w))
	if !ok {
		c.fails++
		c.t.Errorf("%s = %v, want %v", what, g, w)
	}
}

func (c *tally) equal(what string, got, want any) {
	c.t.Helper()
	c.checked++
	if fmt.Sprint(got) != fmt.Sprint(want) {
		c.fails++
		c.t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// readCSVScores reads an original "story_id,score" output (empty = NaN).
func readCSVScores(t *testing.T, path string) (ids []string, scores []any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		id, v, _ := strings.Cut(l, ",")
		ids = append(ids, id)
		if v == "" {
			scores = append(scores, nil)
			continue
		}
		var f float64
		fmt.Sscan(v, &f)
		scores = append(scores, f)
	}
	return ids, scores
}

// TestRoViSTCommandCoherence reproduces rovist_c's story and pair scores,
// system scores and CSV outputs through the command (pieces, ids and
// logits are checked by the rovist package's tests).
func TestRoViSTCommandCoherence(t *testing.T) {
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", dir)
	var exp struct {
		RoViSTC map[string]struct {
			Pairs []struct {
				SentA     string `json:"sent_a"`
				SentB     string `json:"sent_b"`
				Identical bool   `json:"identical"`
				Prob      any    `json:"prob_coherent"`
			} `json:"pairs"`
			Score any `json:"score"`
		} `json:"rovist_c"`
		System any `json:"rovist_c_system_score"`
		DHM    map[string]struct {
			Pairs []struct {
				Pos       int    `json:"pos"`
				Prefix    string `json:"prefix"`
				Sentence  string `json:"sentence"`
				Identical bool   `json:"identical"`
				Prob      any    `json:"prob_coherent"`
			} `json:"pairs"`
			Valid bool `json:"valid"`
			Score any  `json:"score"`
		} `json:"dhm_prefix"`
		DHMSystem any `json:"dhm_prefix_system_score"`
	}
	readJSONFile(t, filepath.Join(dir, "expected.json"), &exp)
	stories := filepath.Join(dir, "stories.json")
	c := &tally{t: t}
	ref := runRoViSTJSON(t, "-stories", stories, "-coherence-model", dir, "-metrics", "c")
	dhm := runRoViSTJSON(t, "-stories", stories, "-coherence-model", dir, "-metrics", "c", "-dhm")
	c.equal("story count", len(ref.Stories), len(exp.RoViSTC))
	scores := map[string]*float64{}
	for _, s := range ref.Stories {
		e, ok := exp.RoViSTC[s.ID]
		if !ok {
			t.Fatalf("story %q not expected", s.ID)
		}
		c.close(s.ID+" score", s.C.Score, e.Score)
		scores[s.ID] = s.C.Score
		c.equal(s.ID+" pairs", len(s.C.Pairs), len(e.Pairs))
		for j, p := range e.Pairs {
			if j < len(s.C.Pairs) {
				g := s.C.Pairs[j]
				c.equal(fmt.Sprintf("%s pair %d", s.ID, j), []any{g.A, g.B, g.Identical}, []any{p.SentA, p.SentB, p.Identical})
				c.close(fmt.Sprintf("%s pair %d prob", s.ID, j), g.Prob, p.Prob)
			}
		}
	}
	c.close("system", ref.System.C, exp.System)
	ids, want := readCSVScores(t, filepath.Join(dir, "coherence_scores.csv"))
	for k, id := range ids {
		c.close("coherence_scores.csv "+id, scores[id], want[k])
	}
	dhmScores := map[string]*float64{}
	for _, s := range dhm.Stories {
		e := exp.DHM[s.ID]
		c.equal(s.ID+" dhm valid", s.C.Score != nil, e.Valid)
		c.close(s.ID+" dhm score", s.C.Score, e.Score)
		dhmScores[s.ID] = s.C.Score
		for j, p := range e.Pairs {
			if j < len(s.C.Pairs) {
				g := s.C.Pairs[j]
				c.equal(fmt.Sprintf("%s dhm pair %d", s.ID, j), []any{g.Second, g.A, g.B, g.Identical}, []any{p.Pos, p.Prefix, p.Sentence, p.Identical})
				c.close(fmt.Sprintf("%s dhm pair %d prob", s.ID, j), g.Prob, p.Prob)
			}
		}
	}
	c.close("dhm system", dhm.System.C, exp.DHMSystem)
	ids, want = readCSVScores(t, filepath.Join(dir, "dhm_fixture_C.csv"))
	for k, id := range ids {
		c.close("dhm_fixture_C.csv "+id, dhmScores[id], want[k])
	}
	t.Logf("%d/%d values match", c.checked-c.fails, c.checked)
}

// TestRoViSTCommandGrounding reproduces rovist_vg's per-story scores and
// per-noun diagnostics, the original scorer's three runs and their CSV
// outputs through the command, from the fixture's original layout.
func TestRoViSTCommandGrounding(t *testing.T) {
	dir := e2efixtures.Metric("rovist_vg")
	t.Logf("fixtures: %s (symloss/ skipped: training, not scoring)", dir)
	type story struct {
		Nouns       []string  `json:"nouns"`
		ImageIDs    []string  `json:"image_ids"`
		IDFPython   []float64 `json:"idf_weights_python"`
		GloveFound  []bool    `json:"glove_found"`
		Recall      []float64 `json:"recall"`
		RecallImage []int     `json:"recall_image_index"`
		NRegions    []int     `json:"n_regions_per_image"`
		RegionsUsed []int     `json:"regions_used_per_image"`
		ScoreIDF    any       `json:"score_idf"`
		ScoreNoIDF  any       `json:"score_no_idf"`
		IDFError    *string   `json:"idf_error"`
		Error       *string   `json:"error"`
	}
	var exp struct {
		PerStory map[string]story `json:"per_story"`
		Runs     map[string]struct {
			System any            `json:"system_score"`
			Scores map[string]any `json:"scores"`
		} `json:"main_runs"`
	}
	readJSONFile(t, filepath.Join(dir, "expected.json"), &exp)
	one := func(pattern string) string {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(m) != 1 {
			t.Fatalf("want one %s in %s, found %v", pattern, dir, m)
		}
		return m[0]
	}
	var crops string
	for _, d := range mustGlob(t, filepath.Join(dir, "*entities*")) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			crops = d
		}
	}
	base := []string{"-stories", filepath.Join(dir, "test_stories.json"), "-metrics", "vg", "-grounding-model", one("*.pth.tar"),
		"-vit", filepath.Dir(one("*/preprocessor_config.json")), "-glove", one("glove*.txt"), "-idf", one("*.pkl"),
		"-regions", one("*entities*.csv"), "-crops", crops, "-nouns", filepath.Join(dir, "nouns.json")}
	c := &tally{t: t}

	var all, withIDF []string
	for id, s := range exp.PerStory {
		all = append(all, id)
		if s.IDFError == nil {
			withIDF = append(withIDF, id)
		}
	}
	slices.Sort(all)
	slices.Sort(withIDF)
	check := func(out rovistOutput, idf bool) {
		for _, s := range out.Stories {
			e := exp.PerStory[s.ID]
			if idf {
				c.close(s.ID+" score_idf", s.VG.Score, e.ScoreIDF)
			} else {
				c.close(s.ID+" score_no_idf", s.VG.Score, e.ScoreNoIDF)
			}
			if e.Error != nil {
				c.equal(s.ID+" undefined (reference: "+*e.Error+")", s.VG.Score == nil, true)
				continue
			}
			var nouns []string
			var found []bool
			var recall, idfs []float64
			var best []int
			for _, n := range s.VG.Nouns {
				nouns, found, best = append(nouns, n.Noun), append(found, n.InGloVe), append(best, n.BestImage)
				recall, idfs = append(recall, *n.Recall), append(idfs, *n.IDF)
			}
			c.equal(s.ID+" nouns", nouns, e.Nouns)
			c.equal(s.ID+" glove_found", found, e.GloveFound)
			c.equal(s.ID+" recall_image_index", best, e.RecallImage)
			for n := range recall {
				c.close(fmt.Sprintf("%s recall %d", s.ID, n), &recall[n], e.Recall[n])
			}
			if idf {
				c.equal(s.ID+" idf_weights_python", idfs, e.IDFPython)
			}
			var imgs []string
			var listed, used []int
			for _, im := range s.VG.Images {
				imgs, listed, used = append(imgs, im.ID), append(listed, im.Listed), append(used, len(im.Regions))
			}
			c.equal(s.ID+" image_ids", imgs, e.ImageIDs)
			c.equal(s.ID+" n_regions_per_image", listed, e.NRegions)
			c.equal(s.ID+" regions_used_per_image", used, e.RegionsUsed)
		}
	}
	check(runRoViSTJSON(t, append(base, "-ids", strings.Join(withIDF, ","))...), true)
	check(runRoViSTJSON(t, append(base, "-ids", strings.Join(all, ","), "-no-idf")...), false)

	// A noun without idf fails naming it, and no output is written.
	for _, id := range all {
		if e := exp.PerStory[id]; e.IDFError != nil {
			var stdout, stderr bytes.Buffer
			code := runMain(append([]string{"rovist"}, append(base, "-ids", id)...), &stdout, &stderr)
			noun := strings.ReplaceAll(strings.TrimPrefix(*e.IDFError, "KeyError: "), "'", "\"")
			c.equal(id+" idf error", code != 0 && stdout.Len() == 0 && strings.Contains(stderr.String(), noun), true)
		}
	}

	// The original runs: -ids in the CSV's order.
	for name, run := range exp.Runs {
		csvIDs, csvScores := readCSVScores(t, filepath.Join(dir, "vg_scores_"+name+".csv"))
		args := append(base, "-ids", strings.Join(csvIDs, ","))
		if strings.HasSuffix(name, "_empty") {
			args = append(args, "-no-idf")
		}
		out := runRoViSTJSON(t, args...)
		c.equal(name+" story count", len(out.Stories), len(run.Scores))
		for k, s := range out.Stories {
			c.close(name+" "+s.ID, s.VG.Score, run.Scores[s.ID])
			c.close("vg_scores_"+name+".csv "+s.ID, s.VG.Score, csvScores[k])
		}
		c.close(name+" system", out.System.VG, run.System)
	}
	t.Logf("%d/%d values match", c.checked-c.fails, c.checked)
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoViSTCommandSkipsAndErrors(t *testing.T) {
	cdir := e2efixtures.Metric("rovist_c")
	vdir := e2efixtures.Metric("rovist_vg")
	stories := filepath.Join(cdir, "stories.json")
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runMain(append([]string{"rovist"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	// C and NR only: VG is skipped with one line naming its flags, and the
	// CSV ends with the system means.
	code, out, errOut := run("-stories", stories, "-coherence-model", cdir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "storyeval rovist: skipping VG: give -grounding-model, -glove, -idf, -regions, -crops\n" {
		t.Errorf("stderr %q", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "id,c,nr" || !strings.HasPrefix(lines[len(lines)-1], rovist.SystemID+",") || len(lines) != 2+strings.Count(mustRead(t, stories), "\": \"") {
		t.Errorf("CSV:\n%s", out)
	}
	// The CSV values are the JSON ones.
	js := runRoViSTJSON(t, "-stories", stories, "-coherence-model", cdir, "-metrics", "c")
	for i, s := range js.Stories {
		f := strings.Split(lines[i+1], ",")
		want := "NaN"
		if s.C.Score != nil {
			want = jsonfloat.CSV(*s.C.Score)
		}
		if f[0] != s.ID || f[1] != want {
			t.Errorf("CSV row %q, JSON %s %s", lines[i+1], s.ID, want)
		}
	}

	empty := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(empty, []byte("{}"), 0o644)
	vgArgs := func(crops string) []string {
		return []string{"-stories", filepath.Join(vdir, "test_stories.json"), "-metrics", "vg", "-grounding-model", filepath.Join(vdir, "r2p_model_epoch2.pth.tar"),
			"-glove", filepath.Join(vdir, "glove.6B.300d.txt"), "-idf", filepath.Join(vdir, "idf_dict.pkl"), "-regions", filepath.Join(vdir, "vist_entities.csv"),
			"-crops", crops, "-default-idf", "1"}
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing to compute", []string{"-stories", stories, "-metrics", "c"}, "no metric"},
		{"empty story set", []string{"-stories", empty, "-metrics", "nr"}, "no stories"},
		{"unknown metric", []string{"-stories", stories, "-metrics", "c,xx"}, "xx"},
		{"bad format", []string{"-stories", stories, "-format", "xml"}, "xml"},
		{"unknown id", []string{"-stories", stories, "-ids", "nope", "-metrics", "nr"}, "nope"},
		{"missing crop", vgArgs(t.TempDir()), ".jpg"},
		{"missing checkpoint", []string{"-stories", stories, "-coherence-model", t.TempDir(), "-metrics", "c"}, ".pth.tar"},
		{"bad default idf", append(vgArgs(filepath.Join(vdir, "vist-entities")), "-default-idf", "x"), "-default-idf"},
	} {
		code, out, errOut := run(tc.args...)
		if code == 0 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a failure naming %q and no output", tc.name, code, out, errOut, tc.want)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
