package stylem

import (
	"github.com/storyeval/storyeval/internal/pairwise"
)

// CNGFormula selects how the ECDF values of an n-gram under every style are
// combined into its contrastive score for one style p.
type CNGFormula int

const (
	// CNGMeanOverOthers is the reference code's formula
	// (prepro_ngrams_style_tokptb_wdivminuseach.py, contrast_p):
	// mean over the other styles q of ECDF_p/occur − ECDF_q/occur, where
	// occur is 1 + the number of other styles in which the n-gram occurs.
	// The mean is numpy's (pairwise summation), so values are bit-identical.
	CNGMeanOverOthers CNGFormula = iota
	// CNGSumOverStyleCount is the paper's eq. 4:
	// (1/|S|) Σ_{q≠p} (ECDF_p − ECDF_q)/occur, which divides by the number
	// of styles |S| instead of |S|−1 and stays within [−1/|S|, (|S|−1)/|S|].
	CNGSumOverStyleCount
)

// cngFormulaNames are the formulas' names in table files and the command.
var cngFormulaNames = enumNames[CNGFormula]{"CNGFormula", []string{"code", "paper"}}

// String returns the name used by table files and the command: "code" or "paper".
func (f CNGFormula) String() string { return cngFormulaNames.name(f) }

func (f CNGFormula) valid() bool { return cngFormulaNames.valid(f) }

// FormulaByName returns the formula called "code" or "paper".
func FormulaByName(name string) (CNGFormula, error) {
	return cngFormulaNames.parse(name, "CNG formula")
}

// cngScratch is per-build scratch space for computing CNG values.
type cngScratch struct {
	terms []float64
	// alone caches the score of an n-gram found in one style only: all
	// |S|−1 terms then equal ECDF_p, so the score depends on ECDF_p alone.
	alone map[float64]float64
	vals  []float64 // the n-gram's ECDF values, by entry
}

func newCNGScratch(nStyles int) *cngScratch {
	return &cngScratch{terms: make([]float64, nStyles), alone: map[float64]float64{}}
}

// ngram writes to dst the CNG, under each of its styles, of an n-gram of
// order n found in styles with document frequencies dfs.
func (sc *cngScratch) ngram(f CNGFormula, ecdfs [][maxOrder]ecdfTable, n int, styles []uint16, dfs []uint32, dst []float64) {
	sc.vals = sc.vals[:0]
	for j, s := range styles {
		sc.vals = append(sc.vals, ecdfs[s][n-1].at(dfs[j]))
	}
	for p := range styles {
		dst[p] = sc.contrast(f, styles, sc.vals, p, len(ecdfs))
	}
}

// contrast computes the CNG of one n-gram for the style at position p of
// its entries. ecdf[j] is the ECDF value of the n-gram under the style
// entStyle[j] of those entries (all > 0); nStyles is |S|.
func (sc *cngScratch) contrast(f CNGFormula, styles []uint16, ecdf []float64, p, nStyles int) float64 {
	occur := float64(len(styles)) // the n-gram's styles other than p, plus 1
	sp := ecdf[p]
	if len(styles) == 1 {
		if v, ok := sc.alone[sp]; ok {
			return v
		}
	}
	terms := sc.terms[:nStyles-1]
	// A style q without the n-gram has ECDF_q = 0, so its term is ECDF_p/occur.
	var absent float64
	if f == CNGMeanOverOthers {
		absent = sp/occur - 0/occur
	} else {
		absent = (sp - 0) / occur
	}
	for i := range terms {
		terms[i] = absent
	}
	own := int(styles[p])
	for j, q := range styles {
		if j == p {
			continue
		}
		pos := int(q)
		if pos > own {
			pos-- // terms skip the style p itself
		}
		if f == CNGMeanOverOthers {
			terms[pos] = sp/occur - ecdf[j]/occur
		} else {
			terms[pos] = (sp - ecdf[j]) / occur
		}
	}
	var v float64
	if f == CNGMeanOverOthers {
		v = pairwise.Mean(terms)
	} else {
		v = pairwise.Sum(terms) / float64(nStyles)
	}
	if len(styles) == 1 {
		sc.alone[sp] = v
	}
	return v
}
