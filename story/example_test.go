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
