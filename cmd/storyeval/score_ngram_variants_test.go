package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/ngram"
)

// TestScoreOptInNgramMetrics checks score's nltkbleu and meteor-vist columns
// against the packages on the untokenized stories, and that "all" leaves
// them out.
func TestScoreOptInNgramMetrics(t *testing.T) {
	suitePath, _, stories, refs, _ := scoreTestSuite(t)
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr bytes.Buffer
	args := []string{"score", "-in", suitePath, "-metrics", "nltkbleu,meteor-vist", "-out", out, "-resamples", "50", "-rounds", "50"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.ReadFile(filepath.Join(out, "scores.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "id,system,NLTK-BLEU-4,METEOR-VIST" {
		t.Fatalf("header %q", got)
	}
	m, err := ngram.NewMeteor(ngram.MeteorVISTOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[[2]string]float64{"NLTK-BLEU-4": {}, "METEOR-VIST": {}}
	for _, sys := range []string{"alpha", "beta", "gamma"} {
		cands := map[string]string{}
		for id := range stories {
			cands[id] = stories[id][sys]
		}
		c, err := ngram.NewCorpus(cands, refs)
		if err != nil {
			t.Fatal(err)
		}
		for id := range stories {
			var rs [][]string
			for _, r := range refs[id] {
				rs = append(rs, strings.Fields(r))
			}
			b, err := ngram.NLTKSentenceBLEU(rs, strings.Fields(cands[id]), ngram.NLTKBLEUOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want["NLTK-BLEU-4"][[2]string{id, sys}] = b
		}
		v, err := m.CorpusScoresVIST(c)
		if err != nil {
			t.Fatal(err)
		}
		for id, s := range v.Items {
			want["METEOR-VIST"][[2]string{id, sys}] = s
		}
	}
	checked := 0
	for _, row := range rows[1:] {
		for c := 2; c < len(row); c++ {
			if got, w := parseCSVFloat(t, row[c]), want[rows[0][c]][[2]string{row[0], row[1]}]; !sameFloat(got, w) {
				t.Errorf("%s of %s/%s: scores.csv %v, package %v", rows[0][c], row[0], row[1], got, w)
			}
			checked++
		}
	}
	if checked != 60*2 {
		t.Fatalf("checked %d scores", checked)
	}
	all, err := compare.ParseMetricNames("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m == "nltkbleu" || m == "meteor-vist" {
			t.Errorf("-metrics all includes %s", m)
		}
	}
}
