package groovist

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

func TestParseThetaAndDataset(t *testing.T) {
	for _, c := range []struct {
		theta, dataset string
		want           float64
		estimate       bool
		err            string
	}{
		{"", "", ThetaVIST, false, ""},
		{"", "AESOP", ThetaAESOP, false, ""},
		{"", "vwp", ThetaVWP, false, ""},
		{"", "custom", 0.5, false, ""}, // config.ini [custom]
		{"vwp", "aesop", ThetaVWP, false, ""},
		{"0", "aesop", 0, false, ""},
		{"0.75", "", 0.75, false, ""},
		{"Estimate", "", ThetaVIST, true, ""},
		{"high", "", 0, false, `theta "high": want a number`},
		{"", "coco", 0, false, `dataset "coco": want vist, aesop, vwp or custom`},
	} {
		d, err := ParseDataset(c.dataset)
		var th Theta
		var est bool
		if err == nil {
			th, est, err = ParseTheta(c.theta, d)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("theta %q dataset %q: error %v, want %q", c.theta, c.dataset, err, c.err)
			}
			continue
		}
		if err != nil || th.Value() != c.want || est != c.estimate {
			t.Errorf("theta %q dataset %q: %v %v %v, want %v %v", c.theta, c.dataset, th.Value(), est, err, c.want, c.estimate)
		}
	}
}

func TestAssignImageIDs(t *testing.T) {
	for _, c := range []struct {
		d     Dataset
		table string
		id    string
		want  []string
		err   string
	}{
		{VIST, `{"s1": [10, 11]}`, "s1", []string{"10", "11"}, ""},
		{VIST, `{"s1": [" 010", "11"]}`, "s1", []string{"10", "11"}, ""}, // int(x) as the reference
		{Custom, `{"s1": ["010", "b.jpg"]}`, "s1", []string{"010", "b.jpg"}, ""},
		{Custom, `{"s1": ["a"]}`, "s2", nil, `story "s2" is not in the image table`},
		{VWP, `{"sc": 2}`, "sc;7", []string{"sc_0", "sc_1"}, ""},
		{VWP, `{"sc": 2}`, "other;1", nil, `scene "other"`},
		{AESOP, "", "f3", []string{"f3_0", "f3_1", "f3_2"}, ""},
		{FromStories, "", "s1", nil, `story "s1" has no images`},
		{VIST, `{"s1": "x"}`, "s1", nil, "want {story id: [image ids]}"},
		{VWP, `[1]`, "s1", nil, "want {scene id: number of images}"},
	} {
		var table *ImageTable
		var err error
		if c.d.NeedsTable() {
			table, err = ParseImageTable([]byte(c.table), c.d)
		}
		in := []Input{{Story: story.Story{ID: c.id}}}
		if err == nil {
			err = AssignImageIDs(in, c.d, table)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want %q", c.d, c.table, err, c.err)
			}
			continue
		}
		var got []string
		for _, im := range in[0].Images {
			got = append(got, im.ID)
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: %v %v, want %v", c.d, c.table, got, err, c.want)
		}
	}
	if err := AssignImageIDs(nil, VIST, nil); err == nil {
		t.Error("VIST without a table: no error")
	}
}

func TestLoadInputsPhrasesInFileOrder(t *testing.T) {
	dir := t.TempDir()
	nps := filepath.Join(dir, "nps.json")
	stories := filepath.Join(dir, "stories.json")
	if err := os.WriteFile(nps, []byte(`{"b": ["the dog"], "a": ["a red car", "the dog"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stories, []byte(`{"a": "A red car. The dog ran."}`), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := LoadInputs(nps, stories, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2 || in[0].ID != "b" || in[1].ID != "a" || in[0].Text != "" || in[1].Text != "A red car. The dog ran." ||
		!reflect.DeepEqual(in[1].NPs, []string{"a red car", "the dog"}) {
		t.Fatalf("inputs %+v", in)
	}
	// idf over the two phrase lists, by word: "the" and "dog" occur in both
	// (log 2/2 = 0), "red" in one (log 2/1).
	idf, err := InputsIDF(in, NounPhrases)
	if err != nil {
		t.Fatal(err)
	}
	if idf["dog"] != 0 || idf["red"] != math.Log(2) {
		t.Errorf("idf %v", idf)
	}
	if _, err := LoadInputs(nps, "", limits.Limits{MaxBytes: 10}); err == nil || !strings.Contains(err.Error(), "more than 10 bytes") {
		t.Errorf("10-byte limit: %v", err)
	}
	if err := os.WriteFile(nps, []byte(`{"a": "the dog"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadInputs(nps, "", limits.Limits{}); err == nil || !strings.Contains(err.Error(), `nps.json: story "a": the NP list is not a list of strings`) {
		t.Errorf("a string for a list: %v", err)
	}
	in, err = LoadInputs("", stories, limits.Limits{})
	if err != nil || len(in) != 1 || in[0].NPs != nil || in[0].Text == "" {
		t.Errorf("stories only: %+v %v", in, err)
	}
}

func TestLoadCaptions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cands := write("cands.json", `{"b": "a dog", "a": "a cat", "unused": "x"}`)
	refs := write("refs.json", `{"a": ["one cat", "two cats"], "b": "a hound"}`)
	ids, paths := []string{"a", "b"}, []string{"im/a.png", "im/b.jpg"}
	got, err := LoadCaptions(cands, refs, ids, paths, limits.Limits{})
	want := []Caption{{ID: "a", Image: "im/a.png", Candidate: "a cat", References: []string{"one cat", "two cats"}},
		{ID: "b", Image: "im/b.jpg", Candidate: "a dog", References: []string{"a hound"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v %v, want %+v", got, err, want)
	}
	if got, err = LoadCaptions(cands, "", ids, paths, limits.Limits{}); err != nil || got[1].References != nil || got[1].Candidate != "a dog" {
		t.Errorf("without references: %+v %v", got, err)
	}
	for _, c := range []struct {
		cands, refs string
		want        string
	}{
		{write("c1.json", `{"a": "a cat"}`), "", `c1.json: no candidate for image "b" (im/b.jpg)`},
		{cands, write("r1.json", `{"a": ["x"], "b": []}`), `r1.json: no reference for image "b"`},
		{write("c2.json", `{"a": 3}`), "", `c2.json: caption of "a" is not a string`},
		{cands, write("r2.json", `{"a": {"x": 1}}`), `r2.json: references of "a" are neither a string nor a list of strings`},
	} {
		if _, err := LoadCaptions(c.cands, c.refs, ids, paths, limits.Limits{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.cands, c.refs, err, c.want)
		}
	}
}
