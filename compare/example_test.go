package compare_test

import (
	"context"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/story"
)

// Two systems' stories of two image sequences, compared with ROUGE-L and
// RoViST-NR: per-system means and the paired randomization test of each
// metric (exact with two stories: 2 of the 4 sign patterns reach the
// observed difference, p = 0.5).
func Example() {
	suite, err := story.ParseSuite([]byte(`{"systems": ["A", "B"], "sequences": {
	  "1": {"references": ["the dog ran in the park . it was fun ."], "stories": {"A": "the dog ran in the park . it was happy .", "B": "a dog . a dog . a dog ."}},
	  "2": {"references": ["we went to the beach . the sun was out ."], "stories": {"A": "we went to the sea . the sun was out .", "B": "the beach . the beach ."}}}}`), "example", story.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	report, err := compare.Compare(context.Background(), suite, []compare.Metric{compare.ROUGEL(), compare.NonRedundancy()}, compare.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range report.Summary.Pairs {
		a, b := report.Summary.PerSystem[p.A][p.Metric].Mean, report.Summary.PerSystem[p.B][p.Metric].Mean
		fmt.Printf("%-9s %s %.3f  %s %.3f  p = %.2f\n", p.Metric, p.A, a, p.B, b, p.P)
	}
	// Output:
	// ROUGE-L   A 0.889  B 0.280  p = 0.50
	// RoViST-NR A 0.919  B 0.500  p = 0.50
}
