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
	in := interner{}
	out := BLEUScores{Items: make(map[string][maxOrder]float64, len(c.ids))}
	var total bleuStats
	for _, id := range c.ids {
		s := bleuSentenceStats(in, c.cands[id], c.refs[id])
		total.testLen += s.testLen
		total.refLen += s.refLen
		for k := range maxOrder {
			total.guess[k] += s.guess[k]
			total.correct[k] += s.correct[k]
		}
		out.Items[id] = s.scores()
	}
	out.Corpus = total.scores()
	return out
}

// bleuSentenceStats is the toolkit's cook_refs + cook_test for one item.
func bleuSentenceStats(in interner, cand string, refs []string) bleuStats {
	maxRef := map[gram]int{}
	refLens := make([]int, len(refs))
	for i, r := range refs {
		ids := in.ids(pyFields(r))
		refLens[i] = len(ids)
		list, _ := countGrams(ids, maxOrder)
		for _, gc := range list {
			if gc.count > maxRef[gc.g] {
				maxRef[gc.g] = gc.count
			}
		}
	}
	ids := in.ids(pyFields(cand))
	var s bleuStats
	s.testLen = len(ids)
	s.refLen = ClosestRefLength(s.testLen, refLens)
	for k := range maxOrder {
		s.guess[k] = max(0, s.testLen-k)
	}
	list, _ := countGrams(ids, maxOrder)
	for _, gc := range list {
		s.correct[gc.g.n-1] += min(maxRef[gc.g], gc.count)
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
