package tokenize_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

func ExampleLoadBERT() {
	bert, err := tokenize.LoadBERT("../../testdata/encoders/fixtures/tokenizers/bert")
	if err != nil {
		log.Fatal(err)
	}
	e := bert.EncodePair("A man plays guitar.", "Café!")
	fmt.Println(e.Tokens)
	fmt.Println(e.IDs)
	fmt.Println(e.TypeIDs)
	// Output:
	// [[CLS] a man plays guitar . [SEP] cafe ! [SEP]]
	// [101 1037 2158 3248 2858 1012 102 7668 999 102]
	// [0 0 0 0 0 0 0 1 1 1]
}

func ExampleLoadALBERT() {
	albert, err := tokenize.LoadALBERT("../../testdata/encoders/fixtures/tokenizers/albert")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(albert.Tokenize("It costs 9,000 dollars, naïvely."))
	fmt.Println(albert.Encode("Hello, world!").IDs)
	// Output:
	// [▁it ▁costs ▁ 9,000 ▁dollars , ▁naive ly .]
	// [2 10975 15 126 187 3]
}

func ExampleLoadCLIP() {
	clip, err := tokenize.LoadCLIP("../../testdata/encoders/fixtures/tokenizers/clip_full", tokenize.CLIPOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(clip.Tokenize("A photo of a cat… don’t"))
	ids, err := clip.OpenAITokenize([]string{"a photo of a cat"}, 10, true)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ids[0])
	// Output:
	// [a</w> photo</w> of</w> a</w> cat</w> âĢ¦</w> don</w> 't</w>]
	// [49406 320 1125 539 320 2368 49407 0 0 0]
}

func ExampleEncoder_EncodeBatch() {
	var enc tokenize.Encoder
	enc, err := tokenize.LoadBERT("../../testdata/encoders/fixtures/tokenizers/bert")
	if err != nil {
		log.Fatal(err)
	}
	batch, err := enc.EncodeBatch([]string{"Hello, world!", "The quick brown fox jumps over the lazy dog."},
		tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: 8, Padding: tokenize.PadLongest})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range batch {
		fmt.Println(e.Tokens, e.AttentionMask)
	}
	// Output:
	// [[CLS] hello , world ! [SEP] [PAD] [PAD]] [1 1 1 1 1 1 0 0]
	// [[CLS] the quick brown fox jumps over [SEP]] [1 1 1 1 1 1 1 1]
}

func ExampleALBERT_Decode() {
	albert, err := tokenize.LoadALBERT("../../testdata/encoders/fixtures/tokenizers/albert")
	if err != nil {
		log.Fatal(err)
	}
	e, err := albert.EncodePairWith("The first sentence is rather long and keeps going.", "The second one.",
		tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: 10})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Tokens)
	fmt.Println(e.TypeIDs)
	text, err := albert.Decode(e.IDs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
	// Output:
	// [[CLS] ▁the ▁first ▁sentence ▁is [SEP] ▁the ▁second ▁one [SEP]]
	// [0 0 0 0 0 0 1 1 1 1]
	// the first sentence is the second one
}
