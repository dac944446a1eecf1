package rovist_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// The sentences and words of a story as RoViST splits it (NLTK 3.8), as a
// JSON line of storyeval tokens.
func ExampleTokensAll() {
	for _, t := range rovist.TokensAll([]story.Story{{ID: "1", Text: "Mr. Smith went home. He can't stay."}}) {
		b, err := json.Marshal(t)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(b))
	}
	// Output:
	// {"id":"1","sentences":["Mr. Smith went home.","He can't stay."],"words":[["Mr.","Smith","went","home","."],["He","ca","n't","stay","."]]}
}
