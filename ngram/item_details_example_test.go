package ngram_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/ngram"
)

// ROUGE-L's precision and recall can come from different references.
func ExampleROUGELDetails() {
	c, err := ngram.NewCorpus(map[string]string{"x": "a b c d"}, map[string][]string{"x": {"a c d e f", "b c"}})
	if err != nil {
		log.Fatal(err)
	}
	s, d := ngram.ROUGELDetails(c)
	x := d["x"]
	fmt.Printf("ROUGE-L %.4f: P %.2f (LCS %d of %d, reference %d), R %.2f (LCS %d of %d, reference %d)\n",
		s.Items["x"], x.Precision, x.PrecisionLCS, x.Words, x.PrecisionRef, x.Recall, x.RecallLCS, x.RecallRefWords, x.RecallRef)
	// Output:
	// ROUGE-L 0.8798: P 0.75 (LCS 3 of 4, reference 0), R 1.00 (LCS 2 of 2, reference 1)
}

// CIDEr-D per order: a story matching its reference's words and bigrams
// but with no 3-grams scores the mean of 10, 10, 0 and 0.
func ExampleCIDErDDetails() {
	c, err := ngram.NewCorpus(
		map[string]string{"a": "a b", "b": "c d g"},
		map[string][]string{"a": {"a b"}, "b": {"e f"}})
	if err != nil {
		log.Fatal(err)
	}
	s, d := ngram.CIDErDDetails(c)
	for _, id := range []string{"a", "b"} {
		fmt.Printf("%s: CIDEr-D %.3f, orders %.3f, length penalty %.3f\n", id, s.Items[id], d[id].Orders, d[id].Penalty)
	}
	// Output:
	// a: CIDEr-D 5.000, orders [10.000 10.000 0.000 0.000], length penalty 1.000
	// b: CIDEr-D 0.000, orders [0.000 0.000 0.000 0.000], length penalty 0.986
}

// Meteor's statistics per item explain its score: the story's words all
// match, so precision is 1; recall is 3δ/(3δ + (1−δ)) = 0.9 with δ = 0.75
// (the reference's "on" is a function word); two chunks over three
// matches give the fragmentation penalty γ(2/3)^β = 0.6·(2/3)^0.2.
func ExampleMeteor_ItemStats() {
	m, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		log.Fatal(err)
	}
	c, err := ngram.NewCorpus(map[string]string{"x": "cat sat mat"}, map[string][]string{"x": {"cat sat on mat"}})
	if err != nil {
		log.Fatal(err)
	}
	st, err := m.ItemStats(c)
	if err != nil {
		log.Fatal(err)
	}
	x := st["x"]
	fmt.Printf("score %.4f: P %.2f, R %.4f, %g chunks, fragmentation penalty %.4f\n", x.Score, x.Precision, x.Recall, x.Chunks, x.FragPenalty)
	// Output:
	// score 0.4082: P 1.00, R 0.9000, 2 chunks, fragmentation penalty 0.5533
}
