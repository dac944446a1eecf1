package ngram

import "math"

// The COCO toolkit's BLEU smoothing constants (bleu_scorer.py): every
// precision is (correct + bleuTiny) / (guess + bleuSmall).
const (
	bleuTiny  = 1e-15
	bleuSmall = 1e-9
)

// BLEUScores holds BLEU-1..4 for the corpus and for each item; index k is
// BLEU-(k+1), the toolkit's "Bleu_(k+1)".
type BLEUScores struct {
	Corpus [maxOrder]float64
	Items  map[string][maxOrder]float64
}

// bleuStats are one sentence's (or the corpus's) BLEU statistics.
type bleuStats struct {
	testLen, refLen int
	guess, correct  [maxOrder]int
}

// BLEU computes BLEU-1..4 as the COCO caption toolkit does (pycocoevalcap
// Bleu(4) with option "closest"). Tokens are the whitespace-separated words
// of each string.
//
// Matches the reference implementation, which: clips each n-gram count by
// its maximum count over the references; takes as effective reference length
// the reference length closest to the candidate's, the shorter on ties, and
// sums those over the corpus; smooths every precision as (correct + 1e-15) /
// (guess + 1e-9), so a perfect match scores 0.99999999971… rather than 1 and
// an empty candidate exactly 0; and scores items with the same formula on
// their own counts, so the corpus score is not the mean of the item scores.
func BLEU(c *Corpus) BLEUScores {
	x := newGramIndex()
	out := BLEUScores{Items: make(map[string][maxOrder]float64, len(c.ids))}
	var total bleuStats
	for _, id := range c.ids {
		s := bleuSentenceStats(x, pyFields(c.cands[id]), c.refs[id], pyFields)
		total.add(s)
		out.Items[id] = s.scores()
	}
	out.Corpus = total.scores()
	return out
}

func (s *bleuStats) add(o bleuStats) {
	s.testLen += o.testLen
	s.refLen += o.refLen
	for k := range maxOrder {
		s.guess[k] += o.guess[k]
		s.correct[k] += o.correct[k]
	}
}

// bleuSentenceStats counts one item's clipped n-gram matches: the toolkit's
// cook_refs + cook_test (SacreBLEU's segment statistics are the same
// counts). Captions are short, so counting by scanning the item's own
// n-gram lists beats hashing them into a corpus-wide table.
func bleuSentenceStats(x *gramIndex, cand []string, refs []string, split func(string) []string) bleuStats {
	refKeys := make([]sentenceKeys, len(refs))
	refLens := make([]int, len(refs))
	for i, r := range refs {
		refKeys[i] = newSentenceKeys(x.tokenIDs(split(r)))
		refLens[i] = refKeys[i].tokens
	}
	ck := newSentenceKeys(x.tokenIDs(cand))
	var s bleuStats
	s.testLen = ck.tokens
	s.refLen = ClosestRefLength(s.testLen, refLens)
	for k := range maxOrder {
		s.guess[k] = max(0, s.testLen-k)
		keys := ck.keys[k]
	next:
		for i, key := range keys {
			for _, prev := range keys[:i] {
				if prev == key {
					continue next // counted at its first occurrence
				}
			}
			refMax := 0
			for _, rk := range refKeys {
				refMax = max(refMax, countKey(rk.keys[k], key))
			}
			s.correct[k] += min(refMax, countKey(keys[i:], key))
		}
	}
	return s
}

// ClosestRefLength returns the reference length closest to candLen, the
// shorter one on ties: BLEU's effective reference length in both the COCO
// toolkit and SacreBLEU. It returns 0 when refLens is empty.
func ClosestRefLength(candLen int, refLens []int) int {
	best, bestDiff := 0, -1
	for _, l := range refLens {
		d := l - candLen
		if d < 0 {
			d = -d
		}
		if bestDiff < 0 || d < bestDiff || (d == bestDiff && l < best) {
			best, bestDiff = l, d
		}
	}
	return best
}

// scores turns statistics into BLEU-1..4 with the toolkit's arithmetic: a
// running product of smoothed precisions, its (k+1)-th root, and the brevity
// penalty exp(1 − 1/ratio) when the length ratio is below 1.
func (s bleuStats) scores() [maxOrder]float64 {
	var out [maxOrder]float64
	prod := 1.0
	for k := range maxOrder {
		prod *= (float64(s.correct[k]) + bleuTiny) / (float64(s.guess[k]) + bleuSmall)
		out[k] = math.Pow(prod, 1/float64(k+1))
	}
	ratio := (float64(s.testLen) + bleuTiny) / (float64(s.refLen) + bleuSmall)
	if ratio < 1 {
		bp := math.Exp(1 - 1/ratio)
		for k := range out {
			out[k] *= bp
		}
	}
	return out
}
