package vhed

import (
	"reflect"
	"strings"
	"testing"
)

// scorePairs are two VHED pairs of story 7: human vs a, and a vs b.
var scorePairs = []Pair{
	{StoryID: "7", Model1: "human", Model2: "a"},
	{StoryID: "7", Model1: "a", Model2: "b"},
}

func TestReadScoresKeyedByStory(t *testing.T) {
	// A BOM, spaces around fields and a second metric; the gaps are
	// score(story 2) − score(story 1) by hand: a−human, b−a.
	in := "\ufeffstory_id, model ,m1,m2\n7,human,0.5,3\n7,a,0.25,1\n7,b, 1 ,2\n"
	cols, err := ReadScores(strings.NewReader(in), scorePairs)
	if err != nil {
		t.Fatal(err)
	}
	want := []ScoreColumn{
		{Name: "m1", Gaps: []float64{-0.25, 0.75}, Stories: map[StoryKey]float64{{"7", "human"}: 0.5, {"7", "a"}: 0.25, {"7", "b"}: 1}},
		{Name: "m2", Gaps: []float64{-2, 1}, Stories: map[StoryKey]float64{{"7", "human"}: 3, {"7", "a"}: 1, {"7", "b"}: 2}},
	}
	if !reflect.DeepEqual(cols, want) {
		t.Errorf("got %+v\nwant %+v", cols, want)
	}
}

func TestReadScoresGapsPerPair(t *testing.T) {
	cols, err := ReadScores(strings.NewReader("vrank,other\n-1.5,2\n0.5,-3e-1\n"), scorePairs)
	if err != nil {
		t.Fatal(err)
	}
	want := []ScoreColumn{{Name: "vrank", Gaps: []float64{-1.5, 0.5}}, {Name: "other", Gaps: []float64{2, -0.3}}}
	if !reflect.DeepEqual(cols, want) {
		t.Errorf("got %+v, want %+v", cols, want)
	}
}

func TestReadScoresErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty CSV: no header row"},
		{"m,m\n1,2\n2,3\n", `column "m" appears twice in the header`},
		{"story_id,model\n7,a\n", "no score columns besides story_id and model"},
		{"story_id,model,m\n7,a,1\n7,a,2\n", `row 3: story_id "7", model "a" already scored in row 2`},
		{"story_id,model,m\n7,a,NaN\n", `row 2, column "m": "NaN" is not a finite number`},
		{"m\n1\n", "1 rows of predicted gaps for 2 VHED pairs"},
		{"story_id,model,m\n7,a,1\n7,b,2\n", `no score for story_id "7", model "human"`},
		{"m\n1,2\n", "wrong number of fields"},
	} {
		_, err := ReadScores(strings.NewReader(c.in), scorePairs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadScores(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func TestReadErrorLabels(t *testing.T) {
	got, err := ReadErrorLabels(strings.NewReader("story_id,model,repetition,grounding\n7,a,1,false\n7,b,0, true\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []ErrorLabels{
		{"repetition", map[StoryKey]bool{{"7", "a"}: true, {"7", "b"}: false}},
		{"grounding", map[StoryKey]bool{{"7", "a"}: false, {"7", "b"}: true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty CSV"},
		{"story_id,e\n7,1\n", "want columns story_id, model and at least one error column"},
		{"story_id,model,e\n7,a,2\n", `row 2, column "e": "2" is not 0 or 1`},
		{"story_id,model,e\n7,a,1\n7,a,0\n", `row 3: story_id "7", model "a" labelled twice`},
	} {
		_, err := ReadErrorLabels(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadErrorLabels(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func TestReadReferences(t *testing.T) {
	got, err := ReadReferences(strings.NewReader(`{"[1, 2]": ["a story", "another"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]string{"[1, 2]": {"a story", "another"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{`["a"]`, "want a JSON object {img_seq: [reference, ...]}"},
		{`{"[1]": ["a"]} {}`, "data after the JSON object"},
		{`{"[1]": ["a", " "]}`, `"[1]": reference 1 is empty`},
		{`{"": ["a"]}`, `image sequence "" has no ids`},
	} {
		_, err := ReadReferences(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadReferences(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}
