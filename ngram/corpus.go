package ngram

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/storyeval/storyeval/internal/parallel"
)

// Corpus pairs each candidate with its references, keyed by id. Build one
// with NewCorpus; it is immutable afterwards and safe for concurrent use.
type Corpus struct {
	ids   []string
	cands map[string]string
	refs  map[string][]string

	// tokens is the corpus split by str.split() and interned, built on
	// first use and shared by BLEU and CIDEr-D.
	tokensOnce sync.Once
	tokens     *tokenCorpus
}

// tokenCorpus returns the corpus split and interned (see newTokenCorpus),
// building it on the first call.
func (c *Corpus) tokenCorpus() *tokenCorpus {
	c.tokensOnce.Do(func() { c.tokens = newTokenCorpus(c) })
	return c.tokens
}

// NewCorpus checks that every id has exactly one candidate and at least one
// reference, as the COCO toolkit asserts, and copies the inputs. Go maps
// have no order, so items are reported in sorted id order and corpus means
// are taken in that order; NewCorpusInOrder keeps an order of the caller's.
func NewCorpus(cands map[string]string, refs map[string][]string) (*Corpus, error) {
	ids := make([]string, 0, len(cands))
	for id := range cands {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return NewCorpusInOrder(ids, cands, refs)
}

// NewCorpusInOrder is NewCorpus with the items in the order of ids, which
// must list every candidate id once (and no empty id); results and corpus means follow that
// order, as the toolkit's follow its dicts' insertion order.
func NewCorpusInOrder(ids []string, cands map[string]string, refs map[string][]string) (*Corpus, error) {
	if len(cands) == 0 {
		return nil, fmt.Errorf("no candidates")
	}
	c := &Corpus{
		ids:   make([]string, 0, len(cands)),
		cands: make(map[string]string, len(cands)),
		refs:  make(map[string][]string, len(cands)),
	}
	for _, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("an item has an empty id")
		}
		cand, ok := cands[id]
		if !ok {
			return nil, fmt.Errorf("id %q has no candidate", id)
		}
		if _, dup := c.cands[id]; dup {
			return nil, fmt.Errorf("id %q appears twice", id)
		}
		rs, ok := refs[id]
		if !ok {
			return nil, fmt.Errorf("candidate %q has no references", id)
		}
		if len(rs) == 0 {
			return nil, fmt.Errorf("candidate %q has an empty reference list", id)
		}
		c.ids = append(c.ids, id)
		c.cands[id] = cand
		c.refs[id] = append([]string(nil), rs...)
	}
	if len(c.ids) != len(cands) {
		for id := range cands {
			if _, listed := c.cands[id]; !listed {
				return nil, fmt.Errorf("candidate %q is not in the id list", id)
			}
		}
	}
	for id := range refs {
		if _, ok := cands[id]; !ok {
			return nil, fmt.Errorf("references for %q have no candidate", id)
		}
	}
	return c, nil
}

// IDs returns the item ids in corpus order (see NewCorpus). The slice is the caller's.
func (c *Corpus) IDs() []string { return append([]string(nil), c.ids...) }

// Len returns the number of items.
func (c *Corpus) Len() int { return len(c.ids) }

// Candidate returns the candidate of item id.
func (c *Corpus) Candidate(id string) string { return c.cands[id] }

// References returns the references of item id. The slice is the caller's.
func (c *Corpus) References(id string) []string { return append([]string(nil), c.refs[id]...) }

// Tokenized returns a corpus whose candidates and references have been run
// through PTBTokenize, which is what the COCO toolkit scores. Items are
// tokenized in parallel.
func (c *Corpus) Tokenized() *Corpus {
	cands := make([]string, len(c.ids))
	refs := make([][]string, len(c.ids))
	parallel.Chunks(len(c.ids), minItemsPerWorker, func(_, lo, hi int) {
		var t ptbTokenizer
		var buf []byte
		for i := lo; i < hi; i++ {
			id := c.ids[i]
			buf = t.appendTokenized(buf[:0], c.cands[id])
			cands[i] = string(buf)
			rs := make([]string, len(c.refs[id]))
			for j, r := range c.refs[id] {
				buf = t.appendTokenized(buf[:0], r)
				rs[j] = string(buf)
			}
			refs[i] = rs
		}
	})
	out := &Corpus{
		ids:   make([]string, len(c.ids)),
		cands: make(map[string]string, len(c.ids)),
		refs:  make(map[string][]string, len(c.ids)),
	}
	for i, id := range c.ids {
		// A copy: the id may be a substring of the whole corpus file
		// (LoadCorpus), which the tokenized corpus need not keep.
		id = strings.Clone(id)
		out.ids[i] = id
		out.cands[id], out.refs[id] = cands[i], refs[i]
	}
	return out
}

// Scores holds a corpus-level score and one score per item id.
type Scores struct {
	Corpus float64
	Items  map[string]float64
}
