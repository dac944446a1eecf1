package story_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/story"
)

func ExampleParseJSON() {
	data := []byte(`{
  "45686": {"story": "the kids had a blast . the end .", "images": ["2997155124", "3067537198"]},
  "45712": "today is the day of the big hike ."
}`)
	set, err := story.ParseJSON(data, "stories.json", story.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, st := range set.All() {
		fmt.Println(st.ID, len(st.Images), st.Text)
	}
	_, err = story.ParseJSON([]byte(`{"45686": 7}`), "stories.json", story.ReadOptions{})
	fmt.Println(err)
	// Output:
	// 45686 2 the kids had a blast . the end .
	// 45712 0 today is the day of the big hike .
	// stories.json: story "45686": want a story text or a {"story", "images"} object, got a number
}

// A JSONReader reads a story file one story at a time, so a file of any
// size is processed in bounded memory.
func ExampleJSONReader() {
	in := `{"s1": "We went to the beach. The sea was cold.", "s2": {"story": "A cake.", "images": ["i7"]}}`
	r := story.NewJSONReader(strings.NewReader(in), "stories.json", story.ReadOptions{})
	for {
		st, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %q %v\n", st.ID, st.Text, st.ImageIDs())
	}
	// Output:
	// s1: "We went to the beach. The sea was cold." []
	// s2: "A cake." [i7]
}

// Inverse document frequencies over stories' nouns, with RoViST's formula
// log(N / (1 + df)) and GROOViST's log(N / df) over the words of phrases.
func ExampleComputeIDF() {
	nouns := [][]string{{"dog", "beach"}, {"dog"}, {"cake"}, {"dog", "cake"}}
	rovist := story.ComputeIDF(nouns, story.IDFOptions{AddOne: true})
	fmt.Printf("RoViST: dog %.4f, cake %.4f, beach %.4f\n", rovist["dog"], rovist["cake"], rovist["beach"])
	phrases := [][]string{{"the dog", "a beach"}, {"the cake"}}
	groovist := story.ComputeIDF(phrases, story.IDFOptions{SplitWords: true})
	fmt.Printf("GROOViST: the %.4f, dog %.4f\n", groovist["the"], groovist["dog"])
	// Output:
	// RoViST: dog 0.0000, cake 0.2877, beach 0.6931
	// GROOViST: the 0.0000, dog 0.6931
}
