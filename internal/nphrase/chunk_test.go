package nphrase

import (
	"reflect"
	"testing"
)

// Expected chunks are spaCy en_core_web_trf noun_chunks shapes (lower-cased,
// per sentence, de-duplicated), for constructions the rules target.
func TestSentences(t *testing.T) {
	cases := []struct {
		text string
		want [][]string
	}{
		{"A man's hat fell. It was red.", [][]string{{"a man's hat"}, {"it"}}},
		{"this is the church where the wedding was held .", [][]string{{"this", "the church", "the wedding"}}},
		{"it was a very close game .", [][]string{{"it", "a very close game"}}},
		{"grandpa did the grilling .", [][]string{{"grandpa", "the grilling"}}},
		{"the dog saw the dog .", [][]string{{"the dog"}}},
		{"yesterday we went to the park .", [][]string{{"we", "the park"}}},
		{"look how large the bush of flowers has gotten . i even have some friendly animals .",
			[][]string{{"the bush", "flowers"}, {"i", "some friendly animals"}}},
		{"some yard maintenance needs to get done .", [][]string{{"some yard maintenance"}}},
		{"there were numerous sculptures that we could touch .", [][]string{{"numerous sculptures", "that", "we"}}},
		{"", nil},
	}
	for _, c := range cases {
		got, err := Sentences(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Sentences(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if _, err := Sentences(string(make([]byte, MaxTextBytes+1))); err == nil {
		t.Error("no error for a text over MaxTextBytes")
	}
}
