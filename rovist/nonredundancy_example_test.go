package rovist_test

import (
	"fmt"

	"github.com/storyeval/storyeval/rovist"
)

func ExampleNonRedundancy() {
	story := "we went to the park . we went to the park . it was fun ."
	res, err := rovist.NonRedundancy(story, rovist.NROptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score:", res.Score)
	for _, p := range res.Inter {
		fmt.Printf("sentences %d and %d: %d/%d\n", p.First, p.Second, p.Shared, p.Union)
	}
	// Output:
	// score: 0.8333333333333334
	// sentences 0 and 1: 5/5
	// sentences 0 and 2: 0/8
	// sentences 1 and 2: 0/8
}

func ExampleNonRedundancy_undefined() {
	res, err := rovist.NonRedundancy("a single sentence .", rovist.NROptions{})
	fmt.Println(res.Defined, res.Score, err)
	// Output:
	// false NaN <nil>
}

func ExampleNonRedundancyTokens() {
	// Tokens per sentence, as scored (already without the final period).
	sents := [][]string{{"the", "dog", "the", "dog"}, {"the", "dog"}}
	ref, _ := rovist.NonRedundancyTokens(sents, rovist.NROptions{})
	paper, _ := rovist.NonRedundancyTokens(sents, rovist.NROptions{SetJaccard: true})
	fmt.Println("reference:", ref.Inter[0].Shared, "/", ref.Inter[0].Union, "score", ref.Score)
	fmt.Println("set Jaccard:", paper.Inter[0].Shared, "/", paper.Inter[0].Union, "score", paper.Score)
	// Output:
	// reference: 4 / 2 score 0
	// set Jaccard: 2 / 2 score 0.5
}
