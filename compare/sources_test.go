package compare

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseMetricNames checks "all", the opt-in variants, case and
// spaces, and the errors for an unknown and a repeated name.
func TestParseMetricNames(t *testing.T) {
	all, err := ParseMetricNames("all")
	if err != nil || !slices.Equal(all, MetricNames()) || slices.Contains(all, "nltkbleu") || slices.Contains(all, "meteor-vist") {
		t.Errorf("all: %v, %v", all, err)
	}
	if got, err := ParseMetricNames(" BLEU ,meteor-vist"); err != nil || !slices.Equal(got, []string{"bleu", "meteor-vist"}) {
		t.Errorf("BLEU,meteor-vist: %v, %v", got, err)
	}
	for list, want := range map[string]string{"bleu,foo": `unknown metric "foo" (known: all or bleu,`, "nr,nr": `"nr" given twice`} {
		if _, err := ParseMetricNames(list); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s…", list, err, want)
		}
	}
}

// testSuiteJSON is two sequences of three systems, with references.
const testSuiteJSON = `{"systems": ["a", "b", "c"], "sequences": {
	"1": {"references": ["a dog ran . it was happy ."], "stories": {"a": "a dog ran . the dog was happy .", "b": "a cat sat .", "c": "the park ."}},
	"2": {"references": ["we went to the beach ."], "stories": {"a": "we went to the beach .", "b": "we went .", "c": "sun ."}}}}`

// testCorpus is a two-style caption corpus for a toy StyleM table.
const testCorpus = `{"style": "Happy", "caption": "what a wonderful sunny day", "image": "i1"}
{"style": "Happy", "caption": "i love this cheerful dog", "image": "i2"}
{"style": "Gloomy", "caption": "the beach is grey and empty", "image": "i1"}
{"style": "Gloomy", "caption": "another dull and dreary day", "image": "i2"}
`

// TestSourcesLoad reads a story set with ratings from files, a demo from
// bytes, and checks the metrics they enable: OnlyStyle only with a table,
// saying what it needs otherwise.
func TestSourcesLoad(t *testing.T) {
	dir := t.TempDir()
	stories, ratings := filepath.Join(dir, "suite.json"), filepath.Join(dir, "ratings.csv")
	os.WriteFile(stories, []byte(testSuiteJSON), 0o644)
	os.WriteFile(ratings, []byte("id,system,rating\n1,a,5\n1,b,2\n"), 0o644)
	src, err := SourcesOptions{Stories: stories, Ratings: ratings}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if src.Suite.Len() != 2 || len(src.Ratings) != 2 || src.Ratings[[2]string{"1", "b"}] != 2 || src.StyleTable != nil {
		t.Errorf("sources %d sequences, ratings %v, table %v", src.Suite.Len(), src.Ratings, src.StyleTable)
	}
	metrics, err := src.Metrics([]string{"bleu", "stylem"}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if u := UnavailableColumns(src.Suite, metrics); len(u) != 1 || u[0].Needs != "a StyleM table and style" {
		t.Errorf("unavailable %+v, want OnlyStyle needing a StyleM table and style", u)
	}
	demo := &DemoSources{Stories: []byte(testSuiteJSON), Ratings: []byte("id,system,rating\n2,c,1\n"), StyleCorpus: []byte(testCorpus), Style: "Happy"}
	src, err = SourcesOptions{Demo: demo}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if src.StyleTable == nil || src.Style != "Happy" || src.Ratings[[2]string{"2", "c"}] != 1 {
		t.Fatalf("demo sources: table %v, style %q, ratings %v", src.StyleTable, src.Style, src.Ratings)
	}
	if metrics, err = src.Metrics([]string{"stylem"}, nil, ""); err != nil || len(UnavailableColumns(src.Suite, metrics)) != 0 {
		t.Errorf("OnlyStyle with the demo's table: %v unavailable, %v", UnavailableColumns(src.Suite, metrics), err)
	}
	table := filepath.Join(dir, "styles.tbl")
	f, _ := os.Create(table)
	if _, err := src.StyleTable.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = SourcesOptions{Stories: stories, StyleTable: table, Style: "Sad"}.Load()
	var se *StyleError
	if !errors.As(err, &se) || se.Style != "Sad" || !slices.Equal(se.Styles, []string{"Happy", "Gloomy"}) {
		t.Errorf("style Sad: %v, want a StyleError listing Happy and Gloomy (corpus order)", err)
	}
	if _, err := (SourcesOptions{Stories: filepath.Join(dir, "missing.json")}).Load(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing story set: %v", err)
	}
}
