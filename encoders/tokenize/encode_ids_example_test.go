package tokenize_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

// Texts with their ids, padded to the longest of two batches found in a
// first pass; then a max length below the special tokens', which HF's
// tokenizer would ignore.
func ExampleEncodeIDs() {
	bert, err := tokenize.LoadBERT("../../testdata/encoders/fixtures/tokenizers/bert")
	if err != nil {
		log.Fatal(err)
	}
	batches := [][2][]string{{{"a"}, {"Café!"}}, {{"b"}, {"A man plays guitar."}}}
	opt := tokenize.Options{Padding: tokenize.PadLongest}
	var longest tokenize.Longest
	for _, b := range batches {
		if err := longest.Add(bert, b[0], b[1], opt); err != nil {
			log.Fatal(err)
		}
	}
	lines, err := tokenize.EncodeIDs(bert, batches[0][0], batches[0][1], opt, &longest.Text)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lines[0].ID, lines[0].Tokens)
	_, err = tokenize.EncodeIDs(bert, batches[0][0], batches[0][1], tokenize.Options{MaxLength: 1, Truncation: tokenize.LongestFirst}, nil)
	var ts *tokenize.TooShortError
	fmt.Println(errors.As(err, &ts), err)
	// Output:
	// a [[CLS] cafe ! [SEP] [PAD] [PAD] [PAD]]
	// true text "a": max length too short to truncate to: 4 tokens remain
}
