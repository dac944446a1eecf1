package rovist

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/story"
)

// TestReadVGPairsCSV checks the columns, duplicate rows dropped as pandas
// drop_duplicates does, and the story filter.
func TestReadVGPairsCSV(t *testing.T) {
	in := "noun_phrase,image_id,bbox,x\n" +
		"a dog,1,\"[1.0, 2.0, 3.0, 4.0]\",a\n" +
		"a dog,1,\"[1.0, 2.0, 3.0, 4.0]\",a\n" +
		"a dog,1,\"[1.0, 2.0, 3.0, 4.0]\",b\n" +
		"the car,2,\"[0.0, 0.0, 5.0, 5.0]\",a\n"
	pairs, err := ReadVGPairsCSV(strings.NewReader(in), "pairs.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 3 || pairs[0] != (VGPair{"1", "[1.0, 2.0, 3.0, 4.0]", "a dog"}) || pairs[2].Phrase != "the car" {
		t.Fatalf("pairs %+v", pairs)
	}
	set := &story.Set{}
	if err := set.Add(story.Story{ID: "s", Text: "x", Images: []story.Image{{ID: "2"}}}); err != nil {
		t.Fatal(err)
	}
	if got := VGPairsOfStories(set, pairs); len(got) != 1 || got[0].ImageID != "2" {
		t.Errorf("pairs of the story: %+v", got)
	}
}
