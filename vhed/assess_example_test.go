package vhed_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/vhed"
)

// Three pairs ranked by annotators; the gap is story 1's average rank
// minus story 2's, so a negative gap means story 1 was ranked better.
var assessExamplePairs = []vhed.Pair{
	{Story1: "the dog ran to the park and played .", Story2: "dog dog dog park .", Gap: -2, Agreement: 5,
		Model1: "human", Model2: "glac", ImageSeq: "s1"},
	{Story1: "a dog played in the park .", Story2: "the dog ran to the park and played .", Gap: -1, Agreement: 3,
		Model1: "arel", Model2: "human", ImageSeq: "s1"},
	{Story1: "dog dog dog park .", Story2: "a dog played in the park .", Gap: 0.6, Agreement: 4,
		Model1: "glac", Model2: "arel", ImageSeq: "s1"},
}

// A per-story metric, here the number of distinct words, through
// AssessStoryFunc: higher is better. The human story has 8 distinct words,
// arel's 7 and glac's 3, so the metric is right on pairs 1 and 3 and wrong
// on pair 2, where the annotators preferred arel's story to the human one.
// Each pair has a different agreement, so each Ω^k (agreement exactly k)
// holds one pair; the union Ω^{4,5} holds pairs 1 and 3, over which the
// reference–machine and machine–machine split is taken.
func ExampleAssess() {
	distinct := vhed.AssessStoryFunc(func(_ context.Context, stories []string) ([]float64, error) {
		out := make([]float64, len(stories))
		for i, s := range stories {
			seen := map[string]bool{}
			for _, w := range strings.Fields(s) {
				seen[w] = true
			}
			out[i] = float64(len(seen))
		}
		return out, nil
	})
	rep, err := vhed.Assess(context.Background(), assessExamplePairs, distinct, vhed.AssessOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %d/%d\n", rep.Overall.Correct, rep.Overall.Total)
	for _, o := range rep.Omega {
		fmt.Printf("Ω%d: %d/%d\n", o.K, o.Correct, o.Total)
	}
	fmt.Printf("Ω%v: %d/%d\n", rep.OmegaUnion.Ks, rep.OmegaUnion.Correct, rep.OmegaUnion.Total)
	fmt.Printf("on it: reference–machine %d/%d, machine–machine %d/%d\n",
		rep.ReferenceMachine.Correct, rep.ReferenceMachine.Total, rep.MachineMachine.Correct, rep.MachineMachine.Total)
	// Output:
	// accuracy 2/3
	// Ω3: 0/1
	// Ω4: 1/1
	// Ω5: 1/1
	// Ω[4 5]: 2/2
	// on it: reference–machine 1/1, machine–machine 1/1
}

// A pairwise gap predictor such as the Vrank model's Predict method,
// through AssessGapFunc: a prediction < 0 says story 1 is better. This one
// prefers the shorter text (36, 26 and 18 bytes for the human, arel and
// glac stories): right only on pair 2, and it puts the machine story
// first in both reference–machine pairs, the annotators in one.
func ExampleAssessGapFunc() {
	shorterFirst := vhed.AssessGapFunc(func(_ context.Context, s1, s2 []string) ([]float64, error) {
		out := make([]float64, len(s1))
		for i := range s1 {
			out[i] = float64(len(s1[i]) - len(s2[i]))
		}
		return out, nil
	})
	rep, err := vhed.Assess(context.Background(), assessExamplePairs, shorterFirst, vhed.AssessOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.3f, machine story first: annotators %d/%d, predictor %d/%d\n",
		rep.Overall.Value, rep.Outrank.Human, rep.Outrank.Pairs, rep.Outrank.Predicted, rep.Outrank.Pairs)
	// Output:
	// accuracy 0.333, machine story first: annotators 1/2, predictor 2/2
}

// SacreBLEU with the Reference Absent algorithm: the human story of a pair
// is removed from its image sequence's references before scoring, so in
// pairs 1 and 2 it is scored against the second reference only, with
// which it shares the 4-grams "dog ran to the" and "ran to the park";
// glac's repetitive story shares no bigram with either reference.
func ExampleRefAbsentScorer() {
	refs := map[string][]string{"s1": {
		"the dog ran to the park and played .",
		"a dog ran to the park to play .",
	}}
	scorer := vhed.RefAbsentScorer{Metric: vhed.AssessSacreBLEU(ngram.SacreBLEUOptions{}), References: refs}
	gaps, err := scorer.ScorePairs(context.Background(), assessExamplePairs)
	if err != nil {
		log.Fatal(err)
	}
	for i, g := range gaps {
		fmt.Printf("pair %d: story %d better\n", i+1, map[bool]int{true: 1, false: 2}[g < 0])
	}
	// Output:
	// pair 1: story 1 better
	// pair 2: story 2 better
	// pair 3: story 2 better
}

// Per-story scores as an evaluation script writes them — story_id, model
// and a column per metric, higher is better — read with ReadScores and
// assessed as fixed predictions. "distinct" is ExampleAssess's metric
// (2/3); "brevity" is minus the story's length in bytes, which, like
// ExampleAssessGapFunc's predictor, is right only on pair 2.
func ExampleReadScores() {
	pairs := append([]vhed.Pair(nil), assessExamplePairs...)
	for i := range pairs {
		pairs[i].StoryID = "7" // the ranking task the three stories belong to
	}
	scores := "story_id,model,distinct,brevity\n7,human,8,-36\n7,arel,7,-26\n7,glac,3,-18\n"
	cols, err := vhed.ReadScores(strings.NewReader(scores), pairs)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cols {
		rep, err := vhed.Assess(context.Background(), pairs, vhed.AssessFixedGaps(c.Gaps), vhed.AssessOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: accuracy %d/%d\n", c.Name, rep.Overall.Correct, rep.Overall.Total)
	}
	// Output:
	// distinct: accuracy 2/3
	// brevity: accuracy 1/3
}
