package rovist

import (
	"reflect"
	"strings"
	"testing"
)

// TestNounsAll: each story's nouns equal Nouns' (checked against NLTK in
// the golden noun tests), in input order across the parallel chunks, and a
// story that is not UTF-8 fails alone.
func TestNounsAll(t *testing.T) {
	stories := []string{"The dog ran to the park.", "\xff bad", "", "A cat sat on a mat. The mat was red."}
	for i := range 40 {
		stories = append(stories, strings.Repeat("the house on the hill . ", i%3+1))
	}
	nouns, errs := NounsAll(stories)
	if len(nouns) != len(stories) || len(errs) != len(stories) {
		t.Fatalf("%d results, %d errors for %d stories", len(nouns), len(errs), len(stories))
	}
	for i, s := range stories {
		want, wantErr := Nouns(s)
		if (errs[i] != nil) != (wantErr != nil) || !reflect.DeepEqual(nouns[i], want) {
			t.Errorf("story %d: %v (error %v), Nouns %v (error %v)", i, nouns[i], errs[i], want, wantErr)
		}
	}
	if errs[1] == nil || errs[0] != nil {
		t.Errorf("errors %v", errs[:2])
	}
	if want := [][]string{{"dog", "park"}}; !reflect.DeepEqual(nouns[0], want) {
		t.Errorf("story 0: %v, want %v", nouns[0], want)
	}
}
