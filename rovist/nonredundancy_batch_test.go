package rovist

import (
	"math"
	"testing"
)

// NonRedundancyAll and NonRedundancyScores must return, in input order,
// exactly what one NRScorer returns story by story; checked on the 5,055 VIST stories, whose
// one-sentence stories are undefined.
func TestNonRedundancyAllMatchesSequential(t *testing.T) {
	ids, texts := storyFile(t, "vist_gt_test.json.gz")
	stories := make([]string, len(ids))
	for i, id := range ids {
		stories[i] = texts[id]
	}
	results, errs := NonRedundancyAll(stories, NROptions{})
	slim, slimErrs := NonRedundancyScores(stories, NROptions{})
	var sc NRScorer
	undefined := 0
	for i, s := range stories {
		want, err := sc.Score(s)
		if (err != nil) != (errs[i] != nil) {
			t.Fatalf("story %s: error %v, sequential %v", ids[i], errs[i], err)
		}
		got := results[i]
		same := got.Defined == want.Defined && (got.Score == want.Score || math.IsNaN(got.Score) && math.IsNaN(want.Score))
		if !same {
			t.Fatalf("story %s: batch %v (defined %v), sequential %v (defined %v)", ids[i], got.Score, got.Defined, want.Score, want.Defined)
		}
		if !got.Defined {
			undefined++
		}
		// NonRedundancyScores: the same numbers, no diagnostics.
		s := slim[i]
		if (slimErrs[i] != nil) != (err != nil) || s.Defined != want.Defined || s.Skipped != want.Skipped ||
			math.Float64bits(s.Score) != math.Float64bits(want.Score) ||
			math.Float64bits(s.InterMean) != math.Float64bits(want.InterMean) || math.Float64bits(s.IntraMean) != math.Float64bits(want.IntraMean) {
			t.Fatalf("story %s: NonRedundancyScores %+v, sequential %v (defined %v)", ids[i], s, want.Score, want.Defined)
		}
		if s.Tokens != nil || s.Inter != nil || s.Intra != nil {
			t.Fatalf("story %s: NonRedundancyScores kept the diagnostics", ids[i])
		}
	}
	if undefined != 156 {
		t.Errorf("%d undefined stories, want the 156 one-sentence ones", undefined)
	}
}
