package ngram

import (
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/internal/pyunicode"
)

// tokenCorpus is a corpus split as Python's str.split() and interned to
// token ids: every sentence's token ids back to back, the candidate of
// item i at sentence itemSents[i] followed by its references. It is what
// CIDEr-D counts, held in four bytes per token.
type tokenCorpus struct {
	tok       []uint32 // token ids (from 1) of all sentences
	sentStart []int    // sentence s is tok[sentStart[s]:sentStart[s+1]]
	occStart  []int    // sentence s's n-grams of orders ≥ 2, in occurrence order
	itemSents []int    // item i's sentences are itemSents[i] .. itemSents[i+1]-1
	vocab     int      // distinct tokens: ids are 1..vocab
}

// newTokenCorpus splits and interns every candidate and reference of c.
// Workers split runs of items with vocabularies of their own; the runs are
// then joined, their token ids mapped into the first run's vocabulary.
func newTokenCorpus(c *Corpus) *tokenCorpus {
	runs := make([]tokenRun, parallel.Workers(len(c.ids), 256))
	parallel.Chunks(len(c.ids), 256, func(w, lo, hi int) {
		runs[w] = splitRun(c, c.ids[lo:hi])
	})
	tc := &tokenCorpus{sentStart: []int{0}, occStart: []int{0}, itemSents: make([]int, 0, len(c.ids)+1)}
	vocab := runs[0].vocab
	var ids []uint32 // a run's token id → id in vocab
	for r := range runs {
		run := &runs[r]
		ids = append(ids[:0], 0)
		for _, word := range run.words {
			id, ok := vocab[word]
			if !ok {
				id = uint32(len(vocab) + 1)
				vocab[word] = id
			}
			ids = append(ids, id)
		}
		for _, s := range run.itemSents {
			tc.itemSents = append(tc.itemSents, len(tc.sentStart)-1+s)
		}
		for s := range len(run.sentStart) - 1 {
			sent := run.tok[run.sentStart[s]:run.sentStart[s+1]]
			for _, t := range sent {
				tc.tok = append(tc.tok, ids[t])
			}
			tc.sentStart = append(tc.sentStart, len(tc.tok))
			tc.occStart = append(tc.occStart, tc.occStart[len(tc.occStart)-1]+gramOccurrences(len(sent)))
		}
		*run = tokenRun{} // let the collector have it
	}
	tc.itemSents = append(tc.itemSents, len(tc.sentStart)-1)
	tc.vocab = len(vocab)
	return tc
}

// tokenRun is one worker's share of a tokenCorpus: a run of items split
// and interned with the run's own vocabulary.
type tokenRun struct {
	tok       []uint32
	sentStart []int // sentence s is tok[sentStart[s]:sentStart[s+1]]
	itemSents []int // the first sentence of each item
	vocab     map[string]uint32
	words     []string // words[id-1] has token id id
}

func splitRun(c *Corpus, ids []string) tokenRun {
	run := tokenRun{sentStart: []int{0}, vocab: map[string]uint32{}}
	var fields []string
	add := func(s string) {
		fields = pyunicode.AppendFields(fields[:0], s)
		for _, f := range fields {
			id, ok := run.vocab[f]
			if !ok {
				run.words = append(run.words, f)
				id = uint32(len(run.words))
				run.vocab[f] = id
			}
			run.tok = append(run.tok, id)
		}
		run.sentStart = append(run.sentStart, len(run.tok))
	}
	for _, id := range ids {
		run.itemSents = append(run.itemSents, len(run.sentStart)-1)
		add(c.cands[id])
		for _, r := range c.refs[id] {
			add(r)
		}
	}
	return run
}

// gramOccurrences is the number of n-grams of orders 2..maxOrder in a
// sentence of n tokens (its unigrams are its tokens).
func gramOccurrences(n int) int {
	total := 0
	for k := 2; k <= maxOrder; k++ {
		total += max(0, n-k+1)
	}
	return total
}

func (tc *tokenCorpus) sentence(s int) []uint32 {
	return tc.tok[tc.sentStart[s]:tc.sentStart[s+1]]
}

// sentences is the number of sentences (candidates and references).
func (tc *tokenCorpus) sentences() int { return len(tc.sentStart) - 1 }

// items is the number of items.
func (tc *tokenCorpus) items() int { return len(tc.itemSents) - 1 }
