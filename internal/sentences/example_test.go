package sentences_test

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/sentences"
)

func ExampleSplit() {
	text := "Mr. Smith went to St. Andrew's Church. He was happy! (Very happy.) Then he left...  The end."
	for _, s := range sentences.Split(text) {
		fmt.Println(s)
	}
	// Output:
	// Mr. Smith went to St. Andrew's Church.
	// He was happy!
	// (Very happy.)
	// Then he left...
	// The end.
}

func ExampleSpans() {
	text := "It rained. We stayed in."
	for _, s := range sentences.Spans(text) {
		fmt.Println(s.Start, s.End, text[s.Start:s.End])
	}
	// Output:
	// 0 10 It rained.
	// 11 24 We stayed in.
}
