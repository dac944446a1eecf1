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
