package story

import (
	"math"
	"strings"
)

// IDF maps a word to its inverse document frequency over a corpus of
// stories: the weight RoViST-VG gives a noun's grounding recall, and
// GROOViST's +idf ablation a noun phrase's score.
type IDF map[string]float64

// IDFOptions chooses between the two metrics' formulas. The zero value is
// GROOViST's: log(N / df) over the terms as given.
type IDFOptions struct {
	// AddOne uses log(N / (1 + df)), the formula of the RoViST paper
	// (Wang et al. 2022, §3.2; the released code ships precomputed weights
	// instead, idf_dict.pkl, whose corpus is not published).
	AddOne bool
	// SplitWords counts the space-separated words of each term instead of
	// the terms: GROOViST weighs a noun phrase by the mean idf of its
	// words.
	SplitWords bool
}

// ComputeIDF returns the idf of every word of a corpus given as one list of
// terms (nouns, noun phrases) per story: log(N / df(w)), or with AddOne
// log(N / (1 + df(w))), N the number of stories and df(w) the number in
// which w occurs at least once. Words are case-sensitive, as both metrics
// look them up.
func ComputeIDF(docs [][]string, o IDFOptions) IDF {
	df := map[string]int{}
	seen := map[string]bool{}
	count := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			df[w]++
		}
	}
	for _, doc := range docs {
		clear(seen)
		for _, term := range doc {
			if !o.SplitWords {
				count(term)
				continue
			}
			for _, w := range strings.Split(strings.TrimSpace(term), " ") {
				count(w)
			}
		}
	}
	add := 0
	if o.AddOne {
		add = 1
	}
	idf := make(IDF, len(df))
	n := float64(len(docs))
	for w, c := range df {
		idf[w] = math.Log(n / float64(c+add))
	}
	return idf
}
