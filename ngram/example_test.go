package ngram_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/ngram"
)

func ExamplePTBTokenize() {
	fmt.Println(ngram.PTBTokenize(`He can't stay -- "Mr. Smith" paid $3.50 (in the U.S.)!`))
	// Output: he ca n't stay mr. smith paid $ 3.50 -lrb- in the u.s. -rrb-
}

func exampleCorpus() *ngram.Corpus {
	c, err := ngram.NewCorpus(
		map[string]string{
			"1": "A man riding a horse on the beach.",
			"2": "A cat sitting on a laptop keyboard.",
		},
		map[string][]string{
			"1": {"A man rides a horse along the beach.", "A person on a horse at the shore."},
			"2": {"A cat sitting on a laptop keyboard.", "A cat lies on a computer."},
		},
	)
	if err != nil {
		log.Fatal(err)
	}
	return c.Tokenized()
}

func ExampleBLEU() {
	c := exampleCorpus()
	s := ngram.BLEU(c)
	fmt.Printf("corpus BLEU-4 %.4f\n", s.Corpus[3])
	// Item 2 matches a reference exactly; the toolkit's smoothing
	// (+1e-15/+1e-9 on every count) keeps it just below 1.
	fmt.Printf("item 2 BLEU-4 %.12f\n", s.Items["2"][3])
	// Output:
	// corpus BLEU-4 0.6011
	// item 2 BLEU-4 0.999999999667
}

func ExampleCIDErD() {
	s := ngram.CIDErD(exampleCorpus())
	fmt.Printf("corpus %.4f, item 1 %.4f, item 2 %.4f\n", s.Corpus, s.Items["1"], s.Items["2"])
	// Output: corpus 3.8865, item 1 2.1415, item 2 5.6315
}

func ExampleROUGEL() {
	s := ngram.ROUGEL(exampleCorpus())
	fmt.Printf("corpus %.4f, item 2 %.4f\n", s.Corpus, s.Items["2"])
	// Output: corpus 0.8750, item 2 1.0000
}

func ExampleSacreBLEU() {
	c, err := ngram.NewCorpus(
		map[string]string{"1": "The cat sat on the mat."},
		map[string][]string{"1": {"The cat is on the mat."}},
	)
	if err != nil {
		log.Fatal(err)
	}
	s, err := ngram.SacreBLEU(c, ngram.SacreBLEUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// Precisions 6/7, 4/6, 2/5, 1/4 of the 13a tokens; no brevity penalty.
	fmt.Printf("%.4f\n", s.Corpus)
	// Output: 48.8923
}

func ExampleParseCorpus() {
	c, err := ngram.ParseCorpus([]byte(`{"cands": {"7": "two dogs"}, "refs": {"7": ["two dogs play", "dogs"]}}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.IDs(), c.References("7"))
	_, err = ngram.ParseCorpus([]byte(`{"cands": {"7": "two dogs"}, "refs": {}}`))
	fmt.Println(err)
	// Output:
	// [7] [two dogs play dogs]
	// candidate "7" has no references
}

func ExampleNewCorpusInOrder() {
	// Items keep the given order (a map-based NewCorpus sorts the ids).
	c, err := ngram.NewCorpusInOrder([]string{"b", "a"},
		map[string]string{"a": "a dog runs", "b": "a cat sleeps"},
		map[string][]string{"a": {"a dog is running"}, "b": {"a cat is sleeping"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.IDs())
	_, err = ngram.NewCorpusInOrder([]string{"a", "a"}, map[string]string{"a": "x"}, map[string][]string{"a": {"x"}})
	fmt.Println(err)
	// Output:
	// [b a]
	// id "a" appears twice
}

// ExampleEvaluate computes the COCO caption toolkit's four metrics on a
// PTB-tokenized corpus, as COCOEvalCap does (the same values as the
// examples of BLEU, ROUGEL and CIDErD; Bleu_1 by hand: 7 of item 1's 8
// words and all 7 of item 2's are in a reference, 14/15, with no brevity
// penalty). Item 2 matches a reference exactly.
func ExampleEvaluate() {
	ev, err := ngram.Evaluate(exampleCorpus(), ngram.EvaluateOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for k, col := range ev.Columns {
		fmt.Printf("%-7s corpus %.4f, item %s %.4f\n", col, ev.Corpus[k], ev.IDs[1], ev.Items[1][k])
	}
	// Output:
	// Bleu_1  corpus 0.9333, item 2 1.0000
	// Bleu_2  corpus 0.8038, item 2 1.0000
	// Bleu_3  corpus 0.6647, item 2 1.0000
	// Bleu_4  corpus 0.6011, item 2 1.0000
	// METEOR  corpus 0.9469, item 2 1.0000
	// ROUGE_L corpus 0.8750, item 2 1.0000
	// CIDEr   corpus 3.8865, item 2 5.6315
}
