package ngram

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
)

// meteorTasksGolden is testdata/meteor_tasks.json.gz (meteor_tasks_gen.py):
// the Meteor 1.5 jar built from github.com/cmu-mtlab/meteor, every English
// task with and without normalization, and the AREL VIST protocol.
type meteorTasksGolden struct {
	Meteor   string `json:"meteor"`
	Java     string `json:"java"`
	Segments []struct {
		ID   string   `json:"id"`
		Hyp  string   `json:"hyp"`
		Refs []string `json:"refs"`
	} `json:"segments"`
	Runs []struct {
		Task     string    `json:"task"`
		Norm     string    `json:"norm"`
		Segments []float64 `json:"segments"`
		System   float64   `json:"system"`
	} `json:"runs"`
	VIST struct {
		Args   []string    `json:"args"`
		Pairs  [][]float64 `json:"pairs"`
		Items  []float64   `json:"items"`
		Corpus float64     `json:"corpus"`
	} `json:"vist"`
}

var meteorNormByName = map[string]MeteorNormalization{"none": MeteorNoNormalize, "lower": MeteorLowerCase, "norm": MeteorNormalize, "nopunct": MeteorNormalizeNoPunct}

// TestMeteorTasksJar checks every task parameter set with each
// normalization against the jar's segment scores and its system score (the
// score of the summed statistics).
func TestMeteorTasksJar(t *testing.T) {
	var g meteorTasksGolden
	readGzipJSON(t, "meteor_tasks.json.gz", &g)
	t.Logf("testdata/meteor_tasks.json.gz: %s, %s, %d segments, %d runs", g.Meteor, g.Java, len(g.Segments), len(g.Runs))
	if len(g.Segments) < 300 || len(g.Runs) != len(MeteorTasks)*len(meteorNormByName) {
		t.Fatalf("%d segments, %d runs", len(g.Segments), len(g.Runs))
	}
	const tol = 1e-9
	checked, exact := 0, 0
	seen := map[string]bool{}
	for _, run := range g.Runs {
		norm, ok := meteorNormByName[run.Norm]
		if !ok {
			t.Fatalf("unknown normalization %q", run.Norm)
		}
		seen[run.Task+"/"+run.Norm] = true
		m, err := NewMeteor(MeteorOptions{Task: MeteorTask(run.Task), Normalization: norm, ParaphraseTable: filepath.Join("testdata", "meteor_paraphrase_tiny.gz")})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Segments) != len(g.Segments) {
			t.Fatalf("%s/%s: %d scores for %d segments", run.Task, run.Norm, len(run.Segments), len(g.Segments))
		}
		var total MeteorStats
		cmp := func(what string, got, want float64) {
			t.Helper()
			checked++
			if got == want {
				exact++
			}
			if math.Abs(got-want) > tol {
				t.Errorf("%s/%s %s: got %.17g, jar %.17g", run.Task, run.Norm, what, got, want)
			}
		}
		for i, seg := range g.Segments {
			s, err := m.Score(seg.Hyp, seg.Refs)
			if err != nil {
				t.Fatal(err)
			}
			cmp(seg.ID, s.Score, run.Segments[i])
			total.Add(s)
		}
		m.ComputeScore(&total)
		cmp("system", total.Score, run.System)
	}
	for _, task := range MeteorTasks {
		for norm := range meteorNormByName {
			if !seen[string(task)+"/"+norm] {
				t.Errorf("no jar run for task %s, normalization %s", task, norm)
			}
		}
	}
	t.Logf("%d values within %g (%d bit-identical)", checked, tol, exact)
}

// TestMeteorVISTJar checks MeteorVISTOptions and CorpusScoresVIST against the
// jar driven as the AREL/MSR VistMeteor wrapper drives it.
func TestMeteorVISTJar(t *testing.T) {
	var g meteorTasksGolden
	readGzipJSON(t, "meteor_tasks.json.gz", &g)
	want := fmt.Sprint([]string{"-", "-", "-stdio", "-t", "hter", "-a", "meteor_paraphrase_tiny.gz"})
	if got := fmt.Sprint(g.VIST.Args); got != want {
		t.Fatalf("fixture's jar arguments %s, want AREL's %s (+ -a table)", got, want)
	}
	opts := MeteorVISTOptions()
	opts.ParaphraseTable = filepath.Join("testdata", "meteor_paraphrase_tiny.gz")
	m, err := NewMeteor(opts)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(g.Segments))
	cands := map[string]string{}
	refs := map[string][]string{}
	for i, seg := range g.Segments {
		ids[i] = seg.ID
		cands[seg.ID], refs[seg.ID] = seg.Hyp, seg.Refs
	}
	c, err := NewCorpusInOrder(ids, cands, refs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.CorpusScoresVIST(c)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-9
	checked, exact := 0, 0
	cmp := func(what string, got, want float64) {
		t.Helper()
		checked++
		if got == want {
			exact++
		}
		if math.Abs(got-want) > tol {
			t.Errorf("%s: got %.17g, jar %.17g", what, got, want)
		}
	}
	for i, id := range ids {
		for j, r := range refs[id] {
			one, err := m.Score(meteorCocoHypothesis(cands[id]), []string{r})
			if err != nil {
				t.Fatal(err)
			}
			cmp(fmt.Sprintf("%s ref %d", id, j), one.Score, g.VIST.Pairs[i][j])
		}
		cmp(id, s.Items[id], g.VIST.Items[i])
	}
	cmp("corpus", s.Corpus, g.VIST.Corpus)
	t.Logf("%d values within %g (%d bit-identical)", checked, tol, exact)
}
