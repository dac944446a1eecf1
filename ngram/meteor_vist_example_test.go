package ngram_test

import (
	"fmt"

	"github.com/storyeval/storyeval/ngram"
)

func ExampleMeteor_CorpusScoresVIST() {
	m, err := ngram.NewMeteor(ngram.MeteorVISTOptions())
	if err != nil {
		panic(err)
	}
	c, err := ngram.NewCorpus(
		map[string]string{
			"1": "a man riding a horse on the beach",
			"2": "two dogs playing with a frisbee",
		},
		map[string][]string{
			"1": {"A man rides a brown horse along the beach.", "A person riding a horse near the ocean."},
			"2": {"Two dogs play with a frisbee in a grassy park."},
		},
	)
	if err != nil {
		panic(err)
	}
	s, err := m.CorpusScoresVIST(c)
	if err != nil {
		panic(err)
	}
	// The corpus score is the mean of the items' best-reference scores.
	fmt.Printf("corpus %.6f, items %.6f %.6f\n", s.Corpus, s.Items["1"], s.Items["2"])
	// Output:
	// corpus 0.532295, items 0.526709 0.537881
}

// The jar without -norm keeps case: "The" and "the" do not match exactly.
func ExampleMeteorOptions_task() {
	for _, task := range []ngram.MeteorTask{ngram.MeteorRank, ngram.MeteorAdequacy, ngram.MeteorHTER} {
		m, err := ngram.NewMeteor(ngram.MeteorOptions{Task: task, Normalization: ngram.MeteorNoNormalize})
		if err != nil {
			panic(err)
		}
		s, _ := m.Score("The cat sat on the mat", []string{"a cat sat on a mat"})
		fmt.Printf("%s %.6f\n", task, s.Score)
	}
	// Output:
	// rank 0.398058
	// adq 0.663586
	// hter 0.613379
}
