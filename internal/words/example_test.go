package words_test

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/words"
)

func ExampleTokenize() {
	fmt.Printf("%q\n", words.Tokenize(`They said "don't go." I cannot wait -- it's 3:30.`))
	// Output:
	// ["They" "said" "``" "do" "n't" "go" "." "''" "I" "can" "not" "wait" "--" "it" "'s" "3:30" "."]
}

func ExampleTokenizeSentence() {
	// Without sentence splitting, only the final period is split off.
	fmt.Printf("%q\n", words.TokenizeSentence(`"Hello," she said. Bye.`))
	// Output:
	// ["``" "Hello" "," "''" "she" "said." "Bye" "."]
}

func ExampleTokenizer() {
	// One Tokenizer per goroutine reuses its buffers across texts.
	var tk words.Tokenizer
	var toks []string
	for _, text := range []string{"Mr. Smith wasn't home.", "We'll see (maybe)!"} {
		toks = tk.Tokenize(toks[:0], text)
		fmt.Printf("%q\n", toks)
	}
	// Output:
	// ["Mr." "Smith" "was" "n't" "home" "."]
	// ["We" "'ll" "see" "(" "maybe" ")" "!"]
}
