package nphrase_test

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/nphrase"
)

func ExampleStory() {
	nps, err := nphrase.Story("The bride and groom leaned forward for a quick kiss. The guests were overwhelmed with joy.")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", nps)
	// Output: ["the bride" "groom" "a quick kiss" "the guests" "joy"]
}
