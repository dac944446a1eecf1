package rovist

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
)

// Nouns given through StoryNouns (extracted once by a caller that also
// loads their GloVe vectors) score exactly as the nouns Score extracts,
// and a list of another length is an error.
func TestGroundingStoryNouns(t *testing.T) {
	f := loadGroundingFixture(t)
	stories := f.stories.Stories()
	nouns, err := StoryNouns(stories, nil)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, n := range nouns {
		words = append(words, n...)
	}
	g := f.grounder(t, words)
	ctx := context.Background()
	want, err := g.Score(ctx, stories, VGOptions{NoIDF: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Score(ctx, stories, VGOptions{NoIDF: true, StoryNouns: nouns})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		// Bit for bit (an undefined score is NaN, which DeepEqual tells
		// apart from itself).
		if math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) || got[i].Defined != want[i].Defined || !reflect.DeepEqual(got[i].Nouns, want[i].Nouns) {
			t.Errorf("story %d: with StoryNouns %v %+v, extracted %v %+v", i, got[i].Score, got[i].Nouns, want[i].Score, want[i].Nouns)
		}
	}
	t.Logf("%d stories, %d nouns", len(stories), len(words))
	if _, err := g.Score(ctx, stories, VGOptions{NoIDF: true, StoryNouns: nouns[1:]}); err == nil || !strings.Contains(err.Error(), "StoryNouns for") {
		t.Errorf("StoryNouns of the wrong length: %v", err)
	}
}
