package rovist

import (
	"math"
	"testing"
)

// FuzzNonRedundancy checks that any text scores without panicking, that
// Defined is exactly "some inter-sentence pair was scored", that defined
// scores are finite and at most 1, and that the set Jaccard variant keeps
// every pair score within [0, 1].
func FuzzNonRedundancy(f *testing.F) {
	for _, s := range []string{"", ". .", "we went to the park . we went to the park .",
		"wow !! great ... really ? yes !", "a b c d a b c d . e f g h e f g h .", "One. Two! Three?"} {
		f.Add(s, uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, story string, block uint8, setJaccard bool) {
		opts := NROptions{BlockLength: int(block % 9), SetJaccard: setJaccard}
		res, err := NonRedundancy(story, opts)
		if err != nil {
			t.Fatalf("%q: %v", story, err)
		}
		if res.Defined != (len(res.Inter) > 0) {
			t.Fatalf("%q: Defined %v with %d inter pairs", story, res.Defined, len(res.Inter))
		}
		if res.Defined && (math.IsNaN(res.Score) || math.IsInf(res.Score, 0) || res.Score > 1) {
			t.Fatalf("%q: defined score %v", story, res.Score)
		}
		if !res.Defined && !math.IsNaN(res.Score) {
			t.Fatalf("%q: undefined score %v is not NaN", story, res.Score)
		}
		for _, p := range append(res.Inter, res.Intra...) {
			if p.Union <= 0 || p.Shared < 0 || (setJaccard && p.Shared > p.Union) {
				t.Fatalf("%q: pair %+v", story, p)
			}
		}
	})
}
