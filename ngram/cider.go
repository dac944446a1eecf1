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

// ciderVec is one sentence's tf-idf vectors, one per n-gram order, with their
// norms and the sentence "length" CIDEr-D's Gaussian penalty uses.
type ciderVec struct {
	grams  []gramCount // n-grams in first-occurrence order
	index  map[gram]int
	values []float64 // tf·idf per entry of grams
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
	in := interner{}
	n := len(c.ids)
	cands := make([][]gramCount, n)
	refs := make([][][]gramCount, n)
	df := map[gram]int{}
	for i, id := range c.ids {
		cands[i], _ = countGrams(in.ids(pyFields(c.cands[id])), maxOrder)
		refs[i] = make([][]gramCount, len(c.refs[id]))
		seen := map[gram]bool{}
		for j, r := range c.refs[id] {
			refs[i][j], _ = countGrams(in.ids(pyFields(r)), maxOrder)
			for _, gc := range refs[i][j] {
				if !seen[gc.g] {
					seen[gc.g] = true
					df[gc.g]++
				}
			}
		}
	}
	refLen := math.Log(float64(n))
	out := Scores{Items: make(map[string]float64, n)}
	all := make([]float64, n)
	for i, id := range c.ids {
		hyp := newCiderVec(cands[i], df, refLen)
		var sum [maxOrder]float64
		for _, r := range refs[i] {
			ref := newCiderVec(r, df, refLen)
			sim := hyp.similarity(&ref)
			for k := range sum {
				sum[k] += sim[k]
			}
		}
		// np.mean of four values adds them left to right.
		score := (((sum[0] + sum[1]) + sum[2]) + sum[3]) / maxOrder
		score /= float64(len(refs[i]))
		score *= ciderScale
		out.Items[id] = score
		all[i] = score
	}
	out.Corpus = pairwise.Mean(all)
	return out
}

// newCiderVec is the toolkit's counts2vec.
func newCiderVec(grams []gramCount, df map[gram]int, refLen float64) ciderVec {
	v := ciderVec{grams: grams, index: make(map[gram]int, len(grams)), values: make([]float64, len(grams))}
	var sq [maxOrder]float64
	for i, gc := range grams {
		idf := math.Log(math.Max(1, float64(df[gc.g])))
		x := float64(gc.count) * (refLen - idf)
		v.values[i] = x
		v.index[gc.g] = i
		k := gc.g.n - 1
		sq[k] += x * x
		if k == 1 {
			v.length += gc.count
		}
	}
	for k := range sq {
		v.norm[k] = math.Sqrt(sq[k])
	}
	return v
}

// similarity is the toolkit's sim: per order, the clipped dot product over
// the hypothesis n-grams, normalised, times the length penalty.
func (h *ciderVec) similarity(r *ciderVec) [maxOrder]float64 {
	var val [maxOrder]float64
	for i, gc := range h.grams {
		j, ok := r.index[gc.g]
		if !ok {
			continue // the reference value is 0, and so is the product
		}
		rv := r.values[j]
		val[gc.g.n-1] += math.Min(h.values[i], rv) * rv
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
