package ngram

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/internal/pyunicode"
)

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
	// The corpus split by str.split() and interned, which CIDEr-D shares.
	tc := c.tokenCorpus()
	stats := make([]bleuStats, len(c.ids))
	parallel.Chunks(len(c.ids), minItemsPerWorker, func(_, lo, hi int) {
		sc := newBLEUScratch()
		for i := lo; i < hi; i++ {
			first, last := tc.itemSents[i], tc.itemSents[i+1]
			stats[i] = sc.stats(tc.sentence(first), last-first-1, func(r int) []uint32 {
				return tc.sentence(first + 1 + r)
			})
		}
	})
	out := BLEUScores{Items: make(map[string][maxOrder]float64, len(c.ids))}
	var total bleuStats
	for i, id := range c.ids {
		total.add(stats[i])
		out.Items[id] = stats[i].scores()
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

// splitFunc appends the tokens of s to dst, using buf for scratch space.
type splitFunc func(buf *tokenizeBuffers, dst []string, s string) []string

// splitPyFields is the COCO toolkit's str.split().
func splitPyFields(_ *tokenizeBuffers, dst []string, s string) []string {
	return pyunicode.AppendFields(dst, s)
}

// itemStats computes every item's BLEU statistics, items in parallel.
func (c *Corpus) itemStats(split splitFunc) []bleuStats {
	stats := make([]bleuStats, len(c.ids))
	parallel.Chunks(len(c.ids), minItemsPerWorker, func(_, lo, hi int) {
		sc := newBLEUScratch()
		for i := lo; i < hi; i++ {
			id := c.ids[i]
			stats[i] = sc.itemStats(c.cands[id], c.refs[id], split)
		}
	})
	return stats
}

func newBLEUScratch() *bleuScratch {
	return &bleuScratch{tokens: map[string]uint32{}, grams: newGramTable(), order: []uint8{0}, count: []int32{0}}
}

// bleuScratch is one worker's reusable state for itemStats.
type bleuScratch struct {
	tokens   map[string]uint32 // token ids, kept across items
	grams    *gramTable        // the candidate's n-grams, cleared per item
	order    []uint8           // n-gram order by candidate gram id
	count    []int32           // candidate count by gram id
	refMax   []int32           // max count over the references by gram id
	refCount []int32           // count in the current reference by gram id
	touched  []uint32          // gram ids counted in the current reference
	fields   []string
	buf      tokenizeBuffers
	ids      []uint32
	refIDs   []uint32
	refLens  []int
}

// itemStats counts one item's clipped n-gram matches (see stats) on the
// tokens split gives, interned to the worker's token ids (0 for a
// reference token the worker has not met in a candidate: no candidate
// n-gram holds it).
func (sc *bleuScratch) itemStats(cand string, refs []string, split splitFunc) bleuStats {
	sc.fields = split(&sc.buf, sc.fields[:0], cand)
	sc.ids = sc.ids[:0]
	for _, t := range sc.fields {
		id, ok := sc.tokens[t]
		if !ok {
			id = uint32(len(sc.tokens) + 1)
			sc.tokens[t] = id
		}
		sc.ids = append(sc.ids, id)
	}
	return sc.stats(sc.ids, len(refs), func(r int) []uint32 {
		sc.fields = split(&sc.buf, sc.fields[:0], refs[r])
		sc.refIDs = sc.refIDs[:0]
		for _, t := range sc.fields {
			sc.refIDs = append(sc.refIDs, sc.tokens[t])
		}
		return sc.refIDs
	})
}

// stats counts one item's clipped n-gram matches: the toolkit's cook_refs +
// cook_test (SacreBLEU's segment statistics are the same counts), from the
// candidate's token ids and those of its n references (ref(r) for r in
// [0, n); ids from 1, 0 for a token that is in no candidate). Only the
// candidate's n-grams matter, so they are interned first and each
// reference is only looked up: a reference k-gram is counted only when its
// (k−1)-gram prefix is a candidate n-gram.
func (sc *bleuScratch) stats(cand []uint32, n int, ref func(r int) []uint32) bleuStats {
	sc.grams.clear()
	sc.order, sc.count = sc.order[:1], sc.count[:1] // id 0 means "absent"
	var s bleuStats
	s.testLen = len(cand)
	for i := range cand {
		prefix := uint32(0)
		for k := 0; k < maxOrder && i+k < len(cand); k++ {
			g, added := sc.grams.lookup(uint64(prefix)<<32|uint64(cand[i+k]), uint32(len(sc.order)))
			if added {
				sc.order = append(sc.order, uint8(k))
				sc.count = append(sc.count, 0)
			}
			sc.count[g]++
			prefix = g
		}
	}
	grams := len(sc.order)
	sc.refMax = growInt32(sc.refMax, grams)[:grams]
	sc.refCount = growInt32(sc.refCount, grams)[:grams]
	clear(sc.refMax)
	sc.refLens = sc.refLens[:0]
	for r := range n {
		toks := ref(r)
		sc.refLens = append(sc.refLens, len(toks))
		sc.touched = sc.touched[:0]
		for i := range toks {
			prefix := uint32(0)
			for k := 0; k < maxOrder && i+k < len(toks); k++ {
				g, found := sc.grams.find(uint64(prefix)<<32 | uint64(toks[i+k]))
				if !found {
					break
				}
				if sc.refCount[g] == 0 {
					sc.touched = append(sc.touched, g)
				}
				sc.refCount[g]++
				prefix = g
			}
		}
		for _, g := range sc.touched {
			sc.refMax[g] = max(sc.refMax[g], sc.refCount[g])
			sc.refCount[g] = 0
		}
	}
	s.refLen = ClosestRefLength(s.testLen, sc.refLens)
	for k := range maxOrder {
		s.guess[k] = max(0, s.testLen-k)
	}
	for g := 1; g < grams; g++ {
		s.correct[sc.order[g]] += int(min(sc.refMax[g], sc.count[g]))
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
