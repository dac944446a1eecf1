package ngram

import (
	"math"

	"github.com/storyeval/storyeval/internal/pairwise"
)

// CIDEr-D constants of the COCO toolkit (cider_scorer.py).
const (
	ciderSigma = 6.0
	ciderScale = 10.0
)

// ciderVec is one sentence's tf-idf vectors, one per n-gram order (the
// entries of grams, in first-occurrence order), with their norms and the
// sentence "length" CIDEr-D's Gaussian penalty uses.
type ciderVec struct {
	grams  *sentenceGrams
	values []float64 // tf·idf per entry of grams.ids
	norm   [maxOrder]float64
	length int
}

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
func CIDErD(c *Corpus) Scores {
	n := len(c.ids)
	cands := make([]sentenceGrams, n)
	refs := make([][]sentenceGrams, n)
	// Count each part of the corpus with its own index, in parallel, then
	// merge the indexes into the first one and renumber.
	type part struct {
		x      *gramIndex
		lo, hi int
	}
	parts := make([]part, chunkWorkers(n))
	parallelChunks(n, func(w, lo, hi int) {
		x := newGramIndex()
		var fields []string
		for i := lo; i < hi; i++ {
			id := c.ids[i]
			fields = appendPyFields(fields[:0], c.cands[id])
			cands[i] = x.count(fields)
			refs[i] = make([]sentenceGrams, len(c.refs[id]))
			for j, r := range c.refs[id] {
				fields = appendPyFields(fields[:0], r)
				refs[i][j] = x.count(fields)
			}
		}
		parts[w] = part{x, lo, hi}
	})
	x := parts[0].x
	for w := 1; w < len(parts); w++ {
		p := parts[w]
		remap := x.adopt(p.x)
		for i := p.lo; i < p.hi; i++ {
			renumber(cands[i].ids, remap)
			for j := range refs[i] {
				renumber(refs[i][j].ids, remap)
			}
		}
	}
	df := make([]int32, x.size())
	seen := make([]int32, x.size()) // seen[id] == item+1 once item's references counted gram id
	for i := range refs {
		for _, rg := range refs[i] {
			for _, g := range rg.ids {
				if seen[g] != int32(i+1) {
					seen[g] = int32(i + 1)
					df[g]++
				}
			}
		}
	}
	refLen := math.Log(float64(n))
	// idf of every n-gram, computed once rather than per occurrence.
	idfs := make([]float64, len(df))
	for g, d := range df {
		idfs[g] = refLen - math.Log(math.Max(1, float64(d)))
	}
	idf := func(g uint32) float64 { return idfs[g] }
	all := make([]float64, n)
	parallelChunks(n, func(_, lo, hi int) {
		refVal := make([]float64, x.size()) // a reference's tf·idf by gram id
		for i := lo; i < hi; i++ {
			hyp := newCiderVec(&cands[i], x, idf)
			var sum [maxOrder]float64
			for j := range refs[i] {
				ref := newCiderVec(&refs[i][j], x, idf)
				for e, g := range ref.grams.ids {
					refVal[g] = ref.values[e]
				}
				sim := hyp.similarity(&ref, x, refVal)
				for _, g := range ref.grams.ids {
					refVal[g] = 0
				}
				for k := range sum {
					sum[k] += sim[k]
				}
			}
			// np.mean of four values adds them left to right.
			score := (((sum[0] + sum[1]) + sum[2]) + sum[3]) / maxOrder
			score /= float64(len(refs[i]))
			score *= ciderScale
			all[i] = score
		}
	})
	out := Scores{Items: make(map[string]float64, n)}
	for i, id := range c.ids {
		out.Items[id] = all[i]
	}
	out.Corpus = pairwise.Mean(all)
	return out
}

// renumber replaces each id by remap[id].
func renumber(ids []uint32, remap []uint32) {
	for k, g := range ids {
		ids[k] = remap[g]
	}
}

// newCiderVec is the toolkit's counts2vec.
func newCiderVec(sg *sentenceGrams, x *gramIndex, idf func(uint32) float64) ciderVec {
	v := ciderVec{grams: sg, values: make([]float64, len(sg.ids))}
	var sq [maxOrder]float64
	for e, g := range sg.ids {
		val := float64(sg.counts[e]) * idf(g)
		v.values[e] = val
		k := x.order[g] - 1
		sq[k] += val * val
		if k == 1 {
			v.length += int(sg.counts[e])
		}
	}
	for k := range sq {
		v.norm[k] = math.Sqrt(sq[k])
	}
	return v
}

// similarity is the toolkit's sim: per order, the clipped dot product over
// the hypothesis n-grams, normalised, times the length penalty. refVal holds
// r's values by gram id (zero for n-grams r lacks).
func (h *ciderVec) similarity(r *ciderVec, x *gramIndex, refVal []float64) [maxOrder]float64 {
	var val [maxOrder]float64
	for e, g := range h.grams.ids {
		rv := refVal[g]
		val[x.order[g]-1] += math.Min(h.values[e], rv) * rv
	}
	delta := float64(h.length - r.length)
	penalty := math.Pow(math.E, -(delta*delta)/(2*ciderSigma*ciderSigma))
	for k := range val {
		if h.norm[k] != 0 && r.norm[k] != 0 {
			val[k] /= h.norm[k] * r.norm[k]
		}
		val[k] *= penalty
	}
	return val
}
