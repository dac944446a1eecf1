package ngram

import (
	"math"

	"github.com/storyeval/storyeval/internal/npmath"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/parallel"
)

// ciderScale is CIDEr-D's score scale in the COCO toolkit (cider_scorer.py);
// its length-penalty width σ = 6 is npmath.CIDErLengthPenalty's.
const ciderScale = 10.0

// CIDErD computes CIDEr-D as the COCO caption toolkit does (pycocoevalcap
// Cider): n-grams of orders 1–4 weighted by tf·idf, where the document
// frequency of an n-gram is the number of items whose references contain it
// and idf = log(#items) − log(max(1, df)); per order, the clipped cosine
// Σ min(h, r)·r / (‖h‖‖r‖) with each reference, times the Gaussian length
// penalty exp(−δ²/(2·6²)); averaged over orders and references and scaled
// by 10. The corpus score is numpy's mean of the item scores.
//
// Matches the reference implementation, which measures length as the
// number of bigram occurrences rather than words; divides by the norms only
// when both are non-zero; and derives idf from the corpus being scored, so an
// item's score depends on the other items.
//
// Memory stays a small multiple of the corpus text: the document
// frequencies are counted in partitions of the n-grams (by first token),
// each within a bounded table, and items are then scored one at a time.
// The split and interned corpus this builds stays with c, for BLEU and
// later calls.
func CIDErD(c *Corpus) Scores { return ciderD(c, ciderTableBudget, nil) }

// ciderD is CIDErD with the document-frequency tables held within budget
// bytes, also filling details[i] with item i's per-order similarities
// when details is not nil.
func ciderD(c *Corpus, budget int, details []CIDErDetail) Scores {
	n := len(c.ids)
	tc := c.tokenCorpus()
	df := tc.docFreqs(budget)
	refLen := math.Log(float64(n))
	// idf by document frequency: df ≤ n, so a table replaces a log per
	// n-gram occurrence.
	idfs := make([]float64, n+1)
	for d := range idfs {
		idfs[d] = refLen - math.Log(math.Max(1, float64(d)))
	}
	all := make([]float64, n)
	parallel.Chunks(n, 64, func(_, lo, hi int) {
		sc := newCiderScratch()
		for i := lo; i < hi; i++ {
			var d *CIDErDetail
			if details != nil {
				d = &details[i]
			}
			all[i] = sc.itemScore(tc, &df, idfs, i, d)
		}
	})
	out := Scores{Items: make(map[string]float64, n)}
	for i, id := range c.ids {
		out.Items[id] = all[i]
	}
	out.Corpus = pairwise.Mean(all)
	return out
}

// ciderScratch is one worker's state for scoring items: an item-local
// n-gram index (ids are dense within the item and reset between items) and
// the vectors of the sentence being scored.
type ciderScratch struct {
	grams *gramTable // (prefix local id, token id) → local id
	order []uint8    // order[id] is the order of local gram id; id 0 unused
	mark  []uint32   // mark[id] == stamp once id is in the current sentence
	pos   []int32    // its entry in the current sentence
	stamp uint32
	prev  []uint32

	hyp, ref ciderVec
	refVal   []float64 // the current reference's tf·idf by local id
}

func newCiderScratch() *ciderScratch {
	return &ciderScratch{grams: newGramTable(), order: []uint8{0}, mark: []uint32{0}, pos: []int32{0}}
}

// ciderVec is one sentence's tf·idf vector: its distinct n-grams in the
// order the toolkit's precook first meets them (all unigrams left to right,
// then all bigrams, …), with counts, values, per-order norms and the
// length CIDEr-D's penalty uses.
type ciderVec struct {
	ids    []uint32
	counts []int32
	dfs    []uint32
	values []float64
	norm   [maxOrder]float64
	length int
}

// itemScore is the toolkit's CIDEr-D score of item i; det, when not nil,
// receives its per-order similarities and mean length penalty.
func (sc *ciderScratch) itemScore(tc *tokenCorpus, df *ciderDF, idfs []float64, i int, det *CIDErDetail) float64 {
	sc.grams.clear()
	sc.order = sc.order[:1]
	first, last := tc.itemSents[i], tc.itemSents[i+1]
	sc.vector(&sc.hyp, tc, df, idfs, first)
	var sum [maxOrder]float64
	for s := first + 1; s < last; s++ {
		sc.vector(&sc.ref, tc, df, idfs, s)
		if len(sc.refVal) < len(sc.order) {
			sc.refVal = append(sc.refVal, make([]float64, len(sc.order)-len(sc.refVal))...)
		}
		for e, g := range sc.ref.ids {
			sc.refVal[g] = sc.ref.values[e]
		}
		sim, penalty := sc.similarity()
		for _, g := range sc.ref.ids {
			sc.refVal[g] = 0
		}
		for k := range sum {
			sum[k] += sim[k]
		}
		if det != nil {
			det.Penalty += penalty
		}
	}
	refs := float64(last - first - 1)
	if det != nil {
		for k := range sum {
			det.Orders[k] = sum[k] / refs * ciderScale
		}
		det.Penalty /= refs
		det.Words, det.References = len(tc.sentence(first)), last-first-1
	}
	// np.mean of four values adds them left to right.
	score := (((sum[0] + sum[1]) + sum[2]) + sum[3]) / maxOrder
	score /= refs
	return score * ciderScale
}

// vector fills v with sentence s's n-grams (the toolkit's precook) and
// their tf·idf values (counts2vec).
func (sc *ciderScratch) vector(v *ciderVec, tc *tokenCorpus, df *ciderDF, idfs []float64, s int) {
	tok := tc.sentence(s)
	occ := df.grams[tc.occStart[s]:tc.occStart[s+1]]
	v.ids, v.counts, v.dfs = v.ids[:0], v.counts[:0], v.dfs[:0]
	sc.stamp++
	if sc.stamp == 0 { // wrapped: reset the marks
		clear(sc.mark)
		sc.stamp = 1
	}
	n := len(tok)
	sc.prev = append(sc.prev[:0], make([]uint32, n)...)
	base := -n // occ[base+i] is the k-gram at i; unigrams are by token
	for k := 1; k <= maxOrder; k, base = k+1, base+max(0, n-k+1) {
		for i := 0; i+k <= n; i++ {
			id := sc.gram(sc.prev[i], tok[i+k-1], k)
			sc.prev[i] = id
			if sc.mark[id] == sc.stamp {
				v.counts[sc.pos[id]]++
				continue
			}
			sc.mark[id] = sc.stamp
			sc.pos[id] = int32(len(v.ids))
			v.ids = append(v.ids, id)
			v.counts = append(v.counts, 1)
			if k == 1 {
				v.dfs = append(v.dfs, df.tokens[tok[i]])
			} else {
				v.dfs = append(v.dfs, occ[base+i])
			}
		}
	}
	v.values = v.values[:0]
	var sq [maxOrder]float64
	v.length = 0
	for e, g := range v.ids {
		val := float64(v.counts[e]) * idfs[v.dfs[e]]
		v.values = append(v.values, val)
		k := sc.order[g] - 1
		sq[k] += val * val
		if k == 1 {
			v.length += int(v.counts[e])
		}
	}
	for k := range sq {
		v.norm[k] = math.Sqrt(sq[k])
	}
}

// gram returns the item-local id of the n-gram (prefix, token).
func (sc *ciderScratch) gram(prefix, token uint32, order int) uint32 {
	id, added := sc.grams.lookup(uint64(prefix)<<32|uint64(token), uint32(len(sc.order)))
	if added {
		sc.order = append(sc.order, uint8(order))
		if len(sc.mark) < len(sc.order) {
			sc.mark = append(sc.mark, 0)
			sc.pos = append(sc.pos, 0)
		}
		sc.mark[id] = 0
	}
	return id
}

// similarity is the toolkit's sim of the hypothesis and the current
// reference: per order, the clipped dot product over the hypothesis
// n-grams, normalised, times the length penalty (also returned).
func (sc *ciderScratch) similarity() ([maxOrder]float64, float64) {
	h, r := &sc.hyp, &sc.ref
	var val [maxOrder]float64
	for e, g := range h.ids {
		rv := sc.refVal[g]
		val[sc.order[g]-1] += math.Min(h.values[e], rv) * rv
	}
	penalty := npmath.CIDErLengthPenalty(h.length - r.length)
	for k := range val {
		if h.norm[k] != 0 && r.norm[k] != 0 {
			val[k] /= h.norm[k] * r.norm[k]
		}
		val[k] *= penalty
	}
	return val, penalty
}
