package train_test

import (
	"fmt"

	"github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/story"
)

// SOPPairs turns each two adjacent sentences of a story into a positive
// (in order) and a negative (swapped) sentence-order example.
func ExampleSOPPairs() {
	pairs, err := train.SOPPairs([]story.Story{{ID: "1", Text: "We went to the beach. The sea was cold. We swam anyway."}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pairs {
		fmt.Printf("%d  %s | %s\n", p.Label, p.A, p.B)
	}
	// Output:
	// 1  We went to the beach. | The sea was cold.
	// 0  The sea was cold. | We went to the beach.
	// 1  The sea was cold. | We swam anyway.
	// 0  We swam anyway. | The sea was cold.
}
