package rovist_test

import (
	"fmt"

	"github.com/storyeval/storyeval/rovist"
)

func ExampleNouns() {
	story := "the local parish holds a craft show each year . " +
		"i stopped at chatted at my friend [female] 's booth for a bit ."
	nouns, err := rovist.Nouns(story)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sentence := range nouns {
		fmt.Println(sentence)
	}
	// Output:
	// [craft parish show year]
	// [bit booth female friend]
}
