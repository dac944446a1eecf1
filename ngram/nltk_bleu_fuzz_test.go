package ngram

import (
	"math"
	"strings"
	"testing"
)

// FuzzNLTKBLEU: any hypothesis and reference, every smoothing method,
// scores without panic, finite and not negative (method5 may exceed 1, as in
// NLTK), and the sentence score is the corpus score of a one-item corpus;
// method6's NLTK exceptions are errors.
func FuzzNLTKBLEU(f *testing.F) {
	f.Add("the cat sat on the mat", "the cat sat on a mat", uint8(0))
	f.Add("", "a", uint8(7))
	f.Add("a a a a a", "a", uint8(5))
	f.Add("x y z", "x y z w", uint8(6))
	f.Fuzz(func(t *testing.T, hyp, ref string, method uint8) {
		opts := NLTKBLEUOptions{Smoothing: NLTKSmoothing(method % 8), AutoReweigh: method&8 != 0}
		h, r := strings.Fields(hyp), strings.Fields(ref)
		s, err := NLTKSentenceBLEU([][]string{r, h}, h, opts)
		if err != nil {
			if opts.Smoothing != NLTKMethod6 {
				t.Fatalf("method%d: %v", opts.Smoothing, err)
			}
			return
		}
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			t.Fatalf("method%d (%q, %q) = %v", opts.Smoothing, hyp, ref, s)
		}
		c, err := NLTKCorpusBLEU([][][]string{{r, h}}, [][]string{h}, opts)
		if err != nil || c != s {
			t.Fatalf("corpus of one %v, %v; sentence %v", c, err, s)
		}
	})
}
