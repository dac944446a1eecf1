package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stylemFixture reads the expected scores of the toy fixture.
func stylemFixture(t *testing.T) (onlyStyle, exist, cider map[string][]float64) {
	t.Helper()
	f, err := os.Open("../../stylem/testdata/toy_cng_onlystyle_stylecider.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		StyleCIDEr map[string][]float64 `json:"StyleCIDEr_per_style_per_test"`
		OnlyStyle  map[string][]float64 `json:"OnlyStyle_per_style_per_test"`
		Exist      map[string][]float64 `json:"OnlyStyleExist_per_style_per_test"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	return fx.OnlyStyle, fx.Exist, fx.StyleCIDEr
}

func TestStylemBuildAndScoreMatchFixture(t *testing.T) {
	table := filepath.Join(t.TempDir(), "toy.stylem")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"stylem", "build", "-in", "../../stylem/testdata/toy_corpus.jsonl.gz", "-out", table,
		"-tokenize", "simple", "-ecdf", "count-ratio"}, &stdout, &stderr); code != 0 {
		t.Fatalf("build exit %d: %s", code, stderr.String())
	}
	var summary map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
		t.Fatal(err)
	}
	if summary["styles"] != 3.0 || summary["records"] != 12.0 || summary["ecdf"] != "count-ratio" || summary["formula"] != "code" {
		t.Errorf("build summary %v", summary)
	}

	stdout.Reset()
	if code := runMain([]string{"stylem", "score", "-table", table, "-in", "../../stylem/testdata/toy_score.jsonl.gz"}, &stdout, &stderr); code != 0 {
		t.Fatalf("score exit %d: %s", code, stderr.String())
	}
	var out struct {
		Items map[string]map[string]map[string]float64 `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := out.Items
	onlyStyle, exist, cider := stylemFixture(t)
	n := 0
	for i, id := range []string{"t1", "t2", "t3"} {
		for _, style := range []string{"Happy", "Gloomy", "Angry"} {
			row := got[id][style]
			for name, want := range map[string]float64{"onlystyle": onlyStyle[style][i], "onlystyle_exist": exist[style][i], "stylecider": cider[style][i]} {
				if row[name] != want {
					t.Errorf("%s %s %s = %v, want %v", id, style, name, row[name], want)
				}
				n++
			}
		}
	}
	if n != 27 {
		t.Errorf("compared %d values, want 27", n)
	}
}

func TestStylemScoreWithoutRefsAndDefaults(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "toy.stylem")
	var stdout, stderr bytes.Buffer
	// Defaults: PTB tokenization, reference formula, count-ratio ECDF.
	if code := runMain([]string{"stylem", "build", "-in", "../../stylem/testdata/toy_corpus.jsonl.gz", "-out", table}, &stdout, &stderr); code != 0 {
		t.Fatalf("build exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"ecdf": "count-ratio"`) || !strings.Contains(stdout.String(), `"tokenize": "ptb"`) {
		t.Errorf("build summary %s", stdout.String())
	}
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"id": "x", "caption": "Such a happy, happy day!"}`+"\n"), 0o644)
	stdout.Reset()
	if code := runMain([]string{"stylem", "score", "-table", table, "-in", in}, &stdout, &stderr); code != 0 {
		t.Fatalf("score exit %d: %s", code, stderr.String())
	}
	var out struct {
		Items map[string]map[string]map[string]*float64 `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := out.Items
	h := got["x"]["Happy"]
	if h["stylecider"] != nil || h["onlystyle"] == nil || *h["onlystyle"] <= *got["x"]["Gloomy"]["onlystyle"] {
		t.Errorf("scores %s", stdout.String())
	}
}

func TestStylemErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stylem"}, "missing action"},
		{[]string{"stylem", "train"}, `unknown action "train"`},
		{[]string{"stylem", "build", "-in", "../../stylem/testdata/toy_corpus.jsonl.gz"}, "-out"},
		{[]string{"stylem", "build", "-in", "x", "-out", filepath.Join(dir, "t"), "-tokenize", "nltk"}, `unknown tokenization "nltk"`},
		{[]string{"stylem", "build", "-in", "x", "-out", filepath.Join(dir, "t"), "-formula", "new"}, `unknown CNG formula "new"`},
		{[]string{"stylem", "build", "-in", "../../stylem/testdata/toy_score.jsonl.gz", "-out", filepath.Join(dir, "t")}, `line 1: missing or empty "style"`},
		{[]string{"stylem", "score", "-table", "../../stylem/testdata/toy_corpus.jsonl.gz", "-in", "x"}, "not a StyleM table"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := runMain(tt.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want an error containing %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

func TestStylemBuildPersonalityCaptions(t *testing.T) {
	table := filepath.Join(t.TempDir(), "pc.stylem")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"stylem", "build", "-in-format", "personality-captions", "-in", "../../stylem/testdata/personality_captions_sample.json.gz",
		"-out", table, "-formula", "paper", "-keep-all-captions"}, &stdout, &stderr); code != 0 {
		t.Fatalf("build exit %d: %s", code, stderr.String())
	}
	var summary map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
		t.Fatal(err)
	}
	// Two of the five records are dropped as the reference drops them.
	if summary["records"] != 3.0 || summary["styles"] != 3.0 || summary["formula"] != "paper" {
		t.Errorf("build summary %v", summary)
	}
	stdout.Reset()
	if code := runMain([]string{"stylem", "-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("stylem -h exit %d", code)
	}
}
