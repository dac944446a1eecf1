package postag_test

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/internal/postag"
)

func ExampleTag() {
	tags, err := postag.Tag(strings.Fields("The quick brown fox jumps over the lazy dog"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tags)
	// Output: [DT JJ NN NN VBZ IN DT JJ NN]
}

func ExampleTagger_AppendTags() {
	tagger, err := postag.English()
	if err != nil {
		fmt.Println(err)
		return
	}
	var tags []string
	for _, sentence := range []string{"we went to the beach .", "John 's big idea is n't all that bad ."} {
		tags = tagger.AppendTags(tags[:0], strings.Fields(sentence))
		fmt.Println(tags)
	}
	// Output:
	// [PRP VBD TO DT NN .]
	// [NNP POS JJ NN VBZ RB PDT DT JJ .]
}
