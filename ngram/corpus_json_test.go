package ngram

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCorpusKeepsFileOrder(t *testing.T) {
	c, err := ParseCorpus([]byte(`{"refs": {"a": ["x"], "c10": ["y"], "c2": ["z"]}, "cands": {"c2": "z", "a": "x", "c10": "y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.IDs(), []string{"c2", "a", "c10"}; !slices.Equal(got, want) {
		t.Errorf("IDs() = %q, want the order of \"cands\" %q", got, want)
	}
}

func TestParseCorpusSaysWhatIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		``:                                "the input is empty",
		"null":                            "got null",
		`[]`:                              "got a list",
		`{"cands": null, "refs": {}}`:     `"cands": want an object, got null`,
		`{"cands": {"a": "x", "a": "y"}}`: `candidate id "a" appears twice`,
		`{"cands": {"a": "x"}, "refs": {"a": ["x"], "a": ["y"]}}`: `reference id "a" appears twice`,
		`{"cands": {"a": 3}, "refs": {}}`:                         `candidate "a": want a string, got a number`,
		`{"cands": {"a": "x"}, "refs": {"a": [null]}}`:            `reference 0: want a string, got null`,
		`{"cands": {"a": "x"}, "refs": {"a": ["x"]}} x`:           "trailing data",
		`{"cands": {"a": "x"}, "refs": {"a": ["x"]}, "extra": 1}`: `unknown member "extra"`,
		`{"cands": {"": "x"}, "refs": {"": ["x"]}}`:               "empty id",
		`{"cands": {"a": "x"}, "refs": {"a": []}}`:                "empty reference list",
		`{"cands": {"a": "x\u0001"}, "refs": {"a": ["x"]}}`:       "",
	} {
		_, err := ParseCorpus([]byte(in))
		switch {
		case want == "" && err != nil:
			t.Errorf("ParseCorpus(%s): %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("ParseCorpus(%s) = %v, want an error saying %q", in, err, want)
		}
	}
}

func TestNewCorpusInOrderChecksTheIDList(t *testing.T) {
	cands := map[string]string{"a": "x", "b": "y"}
	refs := map[string][]string{"a": {"x"}, "b": {"y"}}
	if _, err := NewCorpusInOrder([]string{"a"}, cands, refs); err == nil || !strings.Contains(err.Error(), `candidate "b" is not in the id list`) {
		t.Errorf("missing id: %v", err)
	}
	if _, err := NewCorpusInOrder([]string{"a", "b", "c"}, cands, refs); err == nil || !strings.Contains(err.Error(), `"c" has no candidate`) {
		t.Errorf("extra id: %v", err)
	}
}
