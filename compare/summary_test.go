package compare

import (
	"math"
	"testing"
)

// A hand-computed significance case: system a beats b on all three
// stories, so the exact randomization test enumerates 2^3 swaps and only
// the identity and the all-swapped pattern reach the observed |difference|:
// p = 2/8.
func TestSignificanceHandComputed(t *testing.T) {
	cols := []Column{{Name: "m", Scores: map[string][]float64{"a": {0.9, 0.8, 0.7}, "b": {0.1, 0.2, 0.3}}}}
	_, pairs, err := summarizeScores(t.Context(), []string{"a", "b"}, cols, Settings{Resamples: 10, Rounds: 10, Confidence: 0.95}, func() {})
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 1 || float64(pairs[0].P) != 0.25 || !pairs[0].Exact || math.Abs(float64(pairs[0].MeanDifference)-0.6) > 1e-15 {
		t.Fatalf("pairs %+v, want exact p = 0.25 and mean difference 0.6", pairs)
	}
}
