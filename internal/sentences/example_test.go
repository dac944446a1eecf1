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

func ExampleSplitter() {
	var sp sentences.Splitter
	var spans []sentences.Span
	for _, text := range []string{"Dr. Who? Yes.", "(Sent1.) Sent2."} {
		spans = sp.AppendSpans(spans[:0], text)
		var sents []string
		for _, s := range spans {
			sents = append(sents, text[s.Start:s.End])
		}
		fmt.Printf("%q\n", sents)
	}
	// Output:
	// ["Dr. Who?" "Yes."]
	// ["(Sent1.)" "Sent2."]
}
