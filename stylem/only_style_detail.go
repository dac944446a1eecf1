package stylem

import (
	"cmp"
	"slices"
)

// OnlyStyleDetail is what a caption's OnlyStyle under one style is made of
// (Table.OnlyStyleDetail): per order, the caption's distinct n-grams and
// the mean of their CNG values, and the n-grams that weigh most.
type OnlyStyleDetail struct {
	// Score is OnlyStyle(caption, style), the mean of Orders' MeanCNG
	// over the orders the caption has.
	Score float64
	// Orders are the orders 1–4 the caption has n-grams of.
	Orders []OnlyStyleOrder
	// Top are the caption's distinct n-grams with the highest CNG for the
	// style, highest first (ties in text order), at most the number asked
	// for; n-grams the style's captions lack weigh 0 and are not listed.
	Top []StyleNgram
}

// OnlyStyleOrder is one n-gram order of OnlyStyleDetail.
type OnlyStyleOrder struct {
	// N is the order; Distinct the caption's distinct n-grams of it (each
	// counts once: term frequency is ignored); InStyle those the style's
	// captions contain.
	N, Distinct, InStyle int
	// MeanCNG is the sum of their CNG values over Distinct.
	MeanCNG float64
}

// StyleNgram is an n-gram (tokens joined by single spaces) and its CNG
// value for a style.
type StyleNgram struct {
	Ngram string
	CNG   float64
}

// OnlyStyleDetail returns the score OnlyStyle gives caption under style
// and what it is made of, listing at most top n-grams in Top.
func (t *Table) OnlyStyleDetail(style string, caption []string, top int) (OnlyStyleDetail, error) {
	s, err := t.styleIndex(style)
	if err != nil {
		return OnlyStyleDetail{}, err
	}
	sc, err := t.Score(caption, nil, nil)
	if err != nil {
		return OnlyStyleDetail{}, err
	}
	d := OnlyStyleDetail{Score: sc.OnlyStyle[s]}
	scr := t.scratch()
	defer t.scratchPool.Put(scr)
	h := scr.prepare(t, caption, &scr.hyp)
	var sums [maxOrder]float64
	var in [maxOrder]int
	var weighed []StyleNgram
	// The sums run over the n-grams in the order onlyStyle adds them, so
	// that MeanCNG is the value the score averages.
	for j, k := range h.keys {
		i := h.idx[j]
		if i < 0 {
			continue
		}
		e, ok := t.entry(uint32(i), s)
		if !ok {
			continue
		}
		n, c := k.order()-1, t.entCNG[e]
		sums[n] += c
		in[n]++
		if c > 0 {
			weighed = append(weighed, StyleNgram{t.ngramText(uint32(i)), c})
		}
	}
	for n := range maxOrder {
		if h.count[n] > 0 {
			d.Orders = append(d.Orders, OnlyStyleOrder{N: n + 1, Distinct: h.count[n], InStyle: in[n], MeanCNG: sums[n] / float64(h.count[n])})
		}
	}
	slices.SortFunc(weighed, func(a, b StyleNgram) int {
		return cmp.Or(cmp.Compare(b.CNG, a.CNG), cmp.Compare(a.Ngram, b.Ngram))
	})
	d.Top = weighed[:min(len(weighed), max(top, 0))]
	return d, nil
}
