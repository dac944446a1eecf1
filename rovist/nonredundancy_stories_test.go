package rovist_test

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// TestNonRedundancyOfStories compares with NonRedundancyScores on the
// texts and checks that a failing story is named.
func TestNonRedundancyOfStories(t *testing.T) {
	stories := []story.Story{{ID: "a", Text: "The dog ran. The dog ran. A cat sat."}, {ID: "b", Text: "One sentence."}}
	got, err := rovist.NonRedundancyOfStories(stories, rovist.NROptions{})
	want, errs := rovist.NonRedundancyScores(story.Texts(stories), rovist.NROptions{})
	if err != nil || errs[0] != nil || errs[1] != nil || len(got) != 2 || got[0].Score != want[0].Score || got[1].Defined != want[1].Defined || got[1].Defined {
		t.Errorf("NonRedundancyOfStories = %+v, %v; want %+v", got, err, want)
	}
	bad := []story.Story{{ID: "ok", Text: "A b c. D e f."}, {ID: "empty", Text: ". ."}} // ". .": ZeroDivisionError in testdata/nr_edge_cases.json
	_, err = rovist.NonRedundancyOfStories(bad, rovist.NROptions{ErrorOnEmptyUnion: true})
	if err == nil || !strings.HasPrefix(err.Error(), `story "empty": `) {
		t.Errorf("empty union: %v, want an error naming the story \"empty\"", err)
	}
}
