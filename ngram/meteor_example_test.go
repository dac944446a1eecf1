package ngram_test

import (
	"fmt"

	"github.com/storyeval/storyeval/ngram"
)

func ExampleMeteor_Score() {
	m, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		panic(err)
	}
	s, err := m.Score("A large dog is running in a park.", []string{
		"A big dog runs in the park.",
		"Two cats sleep on a sofa.",
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("METEOR %.4f (P %.3f, R %.3f, chunks %v)\n", s.Score, s.Precision, s.Recall, s.Chunks)
	fmt.Println("jar statistics:", s)
	// Output:
	// METEOR 0.4034 (P 0.776, R 0.825, chunks 3)
	// jar statistics: 9.0 8.0 5.0 4.0 2.0 2.0 3.0 3.0 1.0 1.0 0.0 0.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 3.0 7.0 7.0
}

func ExampleMeteor_Corpus() {
	m, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		panic(err)
	}
	cands := map[string]string{
		"1": "a man riding a horse on the beach",
		"2": "two dogs playing with a frisbee",
	}
	refs := map[string][]string{
		"1": {"A man rides a brown horse along the beach.", "A person riding a horse near the ocean."},
		"2": {"Two dogs play with a frisbee in a grassy park."},
	}
	corpus, items, err := m.Corpus(cands, refs)
	if err != nil {
		panic(err)
	}
	fmt.Printf("corpus %.4f, items %.4f %.4f\n", corpus, items["1"], items["2"])
	// Output:
	// corpus 0.3681, items 0.4135 0.3192
}
