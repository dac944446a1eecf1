package ngram_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/ngram"
)

func ExampleNLTKSentenceBLEU() {
	refs := [][]string{
		ngram.SplitNLTK("a man rides a horse along the beach"),
		ngram.SplitNLTK("a person on a horse at the shore"),
	}
	hyp := ngram.SplitNLTK("a man riding a horse on the beach")
	// No trigram matches: without smoothing, NLTK's BLEU-4 is all but 0.
	plain, err := ngram.NLTKSentenceBLEU(refs, hyp, ngram.NLTKBLEUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	m1, _ := ngram.NLTKSentenceBLEU(refs, hyp, ngram.NLTKBLEUOptions{Smoothing: ngram.NLTKMethod1})
	bleu2, _ := ngram.NLTKSentenceBLEU(refs, hyp, ngram.NLTKBLEUOptions{Weights: []float64{0.5, 0.5}})
	fmt.Printf("BLEU-4 %.4g, method1 %.6f, BLEU-2 %.6f\n", plain, m1, bleu2)
	// Output: BLEU-4 1.167e-154, method1 0.105737, BLEU-2 0.612372
}

func ExampleNLTKCorpusBLEU() {
	refs := [][][]string{
		{ngram.SplitNLTK("a man rides a horse along the beach"), ngram.SplitNLTK("a person on a horse at the shore")},
		{ngram.SplitNLTK("two dogs play")},
	}
	hyps := [][]string{ngram.SplitNLTK("a man riding a horse on the beach"), ngram.SplitNLTK("two dogs run")}
	s, err := ngram.NLTKCorpusBLEU(refs, hyps, ngram.NLTKBLEUOptions{Smoothing: ngram.NLTKMethod3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.6f\n", s)
	// Output: 0.181377
}
