package stylem

import (
	"fmt"
	"strings"
	"sync"
)

// Table holds the contrastive n-gram (CNG) scores and document frequencies
// of every style for n = 1..4. It is built by Build or read by ReadTable,
// never changed afterwards, and safe for concurrent use.
type Table struct {
	styles   []string
	styleIdx map[string]int
	vocab    *vocabulary
	// The n-gram trie (see ngram_trie.go): n-gram i has order order[i].
	children childIndex
	parent   []uint32
	last     []uint32
	order    []uint8

	// The styles in which n-gram i occurs are entStyle[off[i]:off[i+1]]
	// (increasing), with their df and CNG values alongside.
	off      []uint32
	entStyle []uint16
	entDF    []uint32
	entCNG   []float64

	formula CNGFormula
	ecdf    ECDFKind
	step    string // name of the tokenization the table was built with

	scratchPool sync.Pool // *scoreScratch, reused across Score calls
}

// maxStyles bounds the number of styles a table holds (style indices are
// stored in 16 bits).
const maxStyles = 1 << 16

// Styles returns the style labels in table order: the order in which each
// style first appears in the corpus, as in the reference.
func (t *Table) Styles() []string { return append([]string(nil), t.styles...) }

// Formula returns the CNG formula the table was built with.
func (t *Table) Formula() CNGFormula { return t.formula }

// ECDF returns the ECDF kind the table was built with.
func (t *Table) ECDF() ECDFKind { return t.ecdf }

// Tokenization returns the name of the PTB step the table was built with
// ("ptb", "simple", or what BuildOptions.StepName said).
func (t *Table) Tokenization() string { return t.step }

// NumNgrams returns the number of distinct n-grams in the table (over all
// styles and orders).
func (t *Table) NumNgrams() int { return len(t.order) }

// lookup returns the index of the n-gram written as space-separated tokens.
func (t *Table) lookup(ngram string) (uint32, bool) {
	f := strings.Split(ngram, " ")
	if len(f) == 0 || len(f) > maxOrder {
		return 0, false
	}
	var k ngramKey
	for i, tok := range f {
		id, ok := t.vocab.ids[tok]
		if !ok {
			return 0, false
		}
		k[i] = id
	}
	return t.find(k)
}

// entry returns the position of style s in n-gram i's entries.
func (t *Table) entry(i uint32, s int) (int, bool) {
	for e := t.off[i]; e < t.off[i+1]; e++ {
		if int(t.entStyle[e]) == s {
			return int(e), true
		}
	}
	return 0, false
}

// CNG returns the contrastive n-gram score of ngram (tokens joined by single
// spaces, as Tokenize produces them, e.g. "happy day <eos>") for style. ok
// is false when the style's captions do not contain the n-gram; scoring
// then uses 0, as the reference's defaultdict does.
func (t *Table) CNG(style, ngram string) (value float64, ok bool) {
	s, known := t.styleIdx[style]
	if !known {
		return 0, false
	}
	i, found := t.lookup(ngram)
	if !found {
		return 0, false
	}
	e, found := t.entry(i, s)
	if !found {
		return 0, false
	}
	return t.entCNG[e], true
}

// DocFreq returns the document frequency of ngram in style: the number of
// the style's caption groups (records) whose captions contain it; 0 when
// none does.
func (t *Table) DocFreq(style, ngram string) int {
	s, known := t.styleIdx[style]
	if !known {
		return 0
	}
	i, found := t.lookup(ngram)
	if !found {
		return 0
	}
	e, found := t.entry(i, s)
	if !found {
		return 0
	}
	return int(t.entDF[e])
}

// Count returns the number of distinct n-grams of order n (1..4) that
// occur in style's captions, which is the number of values its ECDF is
// built from.
func (t *Table) Count(style string, n int) int {
	s, known := t.styleIdx[style]
	if !known {
		return 0
	}
	c := 0
	for i, o := range t.order {
		if int(o) != n {
			continue
		}
		if _, ok := t.entry(uint32(i), s); ok {
			c++
		}
	}
	return c
}

// styleIndex returns the index of style or an error naming it.
func (t *Table) styleIndex(style string) (int, error) {
	s, ok := t.styleIdx[style]
	if !ok {
		return 0, fmt.Errorf("style %q is not in the table (%d styles)", style, len(t.styles))
	}
	return s, nil
}
