package vhed

import (
	"context"
	"math"
	"testing"
)

// TestAssessNLTKBLEUByName checks the nltkbleu metric by hand: "m n o p q
// r" against "m n o p k l" matches 4/6 words, 3/5 bigrams, 2/4 trigrams and
// 1/3 4-grams at equal length, so NLTK's BLEU-4 is (1/15)^¼; a story
// without a single matching word scores exactly 0 (NLTK's early return).
func TestAssessNLTKBLEUByName(t *testing.T) {
	m, err := AssessRefMetricByName("NLTK-BLEU")
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.ScoreItems(context.Background(), []string{"m n o p q r", "w x y z"}, [][]string{{"m n o p k l"}, {"m n o p k l"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Pow(1.0/15, 0.25); math.Abs(got[0]-want) > 1e-15 || got[1] != 0 {
		t.Errorf("got %v, want [%v 0]", got, want)
	}
}

// TestAssessMETEORVISTByName checks the meteor-vist metric against the
// Meteor 1.5 jar (cmu-mtlab/meteor) driven as the AREL/MSR VIST scripts
// drive it (-stdio -t hter, one SCORE per reference, the best): 0.52671 and
// 0.43379 for the two references of the first story, 0.53788 for the
// second.
func TestAssessMETEORVISTByName(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: METEOR loads its 1.5 MB resources")
	}
	m, err := AssessRefMetricByName("meteor-vist")
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.ScoreItems(context.Background(),
		[]string{"a man riding a horse on the beach", "two dogs playing with a frisbee"},
		[][]string{{"A man rides a brown horse along the beach.", "A person riding a horse near the ocean."}, {"Two dogs play with a frisbee in a grassy park."}})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5267088092370011, 0.5378806715643832}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Errorf("item %d: got %.17g, jar %.17g", i, got[i], want[i])
		}
	}
	if m.Name() != "METEOR-VIST" {
		t.Errorf("name %q", m.Name())
	}
}
