package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// ngramJSON is the JSON output of `storyeval ngram`.
type ngramJSON struct {
	Corpus map[string]float64            `json:"corpus"`
	Items  map[string]map[string]float64 `json:"items"`
}

func runNgramJSON(t *testing.T, args ...string) ngramJSON {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runMain(append([]string{"ngram"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("ngram %v: exit %d: %s", args, code, stderr.String())
	}
	var got ngramJSON
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	return got
}

// TestNgramCommandNLTKBLEU checks -metrics nltkbleu (with and without
// -nltk-smoothing 1) against NLTK 3.8's sentence_bleu/corpus_bleu on the
// captions corpus split at white space (the golden's raw mode).
func TestNgramCommandNLTKBLEU(t *testing.T) {
	in := gunzipTo(t, "../../ngram/testdata/captions_small.json.gz", t.TempDir())
	var gold struct {
		Modes map[string]struct {
			Corpus map[string]float64            `json:"corpus"`
			Items  map[string]map[string]float64 `json:"items"`
		} `json:"modes"`
	}
	readGoldenGz(t, "../../ngram/testdata/captions_small.nltk.json.gz", &gold)
	raw := gold.Modes["raw"]
	if len(raw.Items) == 0 {
		t.Fatal("golden has no raw items")
	}
	checked := 0
	for _, c := range []struct {
		args []string
		key  string
	}{
		{[]string{"-tokenize", "none", "-metrics", "nltkbleu"}, "Bleu_4"},
		{[]string{"-tokenize", "none", "-metrics", "nltkbleu", "-nltk-smoothing", "1"}, "Bleu_4_m1"},
		{[]string{"-tokenize", "none", "-metrics", "nltkbleu", "-nltk-weights", "0.5,0.5"}, "Bleu_2"},
	} {
		got := runNgramJSON(t, append(c.args, "-in", in)...)
		for id, item := range raw.Items {
			w, ok := item[c.key]
			if !ok {
				t.Fatalf("golden item %s lacks %s", id, c.key)
			}
			if g := got.Items[id]["NLTK_BLEU"]; math.Abs(g-w) > 1e-12 {
				t.Errorf("%v item %s = %v, NLTK %v", c.args, id, g, w)
			}
			checked++
		}
		if w, ok := raw.Corpus[c.key]; ok {
			if g := got.Corpus["NLTK_BLEU"]; math.Abs(g-w) > 1e-12 {
				t.Errorf("%v corpus = %v, NLTK %v", c.args, g, w)
			}
			checked++
		}
	}
	t.Logf("%d values within 1e-12 of NLTK 3.8", checked)
}

// TestNgramCommandMeteorTasks checks -metrics meteor with -meteor-task hter
// -meteor-norm none and -metrics meteor-vist against the Meteor 1.5 jar
// (ngram/testdata/meteor_tasks.json.gz, paraphrase table
// meteor_paraphrase_tiny.gz).
func TestNgramCommandMeteorTasks(t *testing.T) {
	var g struct {
		Segments []struct {
			ID   string   `json:"id"`
			Hyp  string   `json:"hyp"`
			Refs []string `json:"refs"`
		} `json:"segments"`
		Runs []struct {
			Task, Norm string
			Segments   []float64 `json:"segments"`
			System     float64   `json:"system"`
		} `json:"runs"`
		VIST struct {
			Items  []float64 `json:"items"`
			Corpus float64   `json:"corpus"`
		} `json:"vist"`
	}
	readGoldenGz(t, "../../ngram/testdata/meteor_tasks.json.gz", &g)
	corpus := map[string]any{"cands": map[string]string{}, "refs": map[string][]string{}}
	for _, s := range g.Segments {
		corpus["cands"].(map[string]string)[s.ID] = s.Hyp
		corpus["refs"].(map[string][]string)[s.ID] = s.Refs
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "corpus.json")
	data, _ := json.Marshal(corpus)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	para := "../../ngram/testdata/meteor_paraphrase_tiny.gz"
	checked := 0
	cmp := func(what string, got, want float64) {
		t.Helper()
		checked++
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: got %v, jar %v", what, got, want)
		}
	}
	vist := runNgramJSON(t, "-tokenize", "none", "-metrics", "meteor-vist", "-meteor-paraphrase", para, "-in", in)
	for i, s := range g.Segments {
		cmp("meteor-vist "+s.ID, vist.Items[s.ID]["METEOR_VIST"], g.VIST.Items[i])
	}
	cmp("meteor-vist corpus", vist.Corpus["METEOR_VIST"], g.VIST.Corpus)
	for _, run := range g.Runs {
		if run.Task != "hter" || run.Norm != "none" {
			continue
		}
		// The corpus is read in key order; the system score sums the same
		// whole-number statistics in any order.
		got := runNgramJSON(t, "-tokenize", "none", "-metrics", "meteor", "-meteor-task", "hter", "-meteor-norm", "none", "-meteor-paraphrase", para, "-in", in)
		for i, s := range g.Segments {
			cmp("meteor hter/none "+s.ID, got.Items[s.ID]["METEOR"], run.Segments[i])
		}
		cmp("meteor hter/none system", got.Corpus["METEOR"], run.System)
	}
	if checked < 2*len(g.Segments)+2 {
		t.Fatalf("only %d values checked", checked)
	}
	t.Logf("%d values within 1e-9 of the Meteor 1.5 jar", checked)
}
