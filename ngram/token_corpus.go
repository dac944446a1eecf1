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
// Workers split runs of items with vocabularies of their own; the
// vocabularies are then joined into the first run's, and each run writes
// its sentences, their token ids mapped, into its place in the result.
func newTokenCorpus(c *Corpus) *tokenCorpus {
	// At most four runs: each holds a vocabulary, which on text of many
	// rare words costs more than the text.
	perRun := max(256, (len(c.ids)+maxTokenRuns-1)/maxTokenRuns)
	runs := make([]tokenRun, parallel.Workers(len(c.ids), perRun))
	parallel.Chunks(len(c.ids), perRun, func(w, lo, hi int) {
		runs[w] = splitRun(c, c.ids[lo:hi])
	})
	vocab := runs[0].vocab
	ids := make([][]uint32, len(runs)) // by run: its token id → id in vocab
	toks, sents, occs := 0, 0, 0
	for r := range runs {
		run := &runs[r]
		ids[r] = append(make([]uint32, 0, len(run.words)+1), 0)
		for _, word := range run.words {
			id, ok := vocab[word]
			if !ok {
				id = uint32(len(vocab) + 1)
				vocab[word] = id
			}
			ids[r] = append(ids[r], id)
		}
		run.tokBase, run.sentBase, run.occBase = toks, sents, occs
		toks += len(run.tok)
		sents += len(run.sentStart) - 1
		occs += run.occs
	}
	tc := &tokenCorpus{
		tok:       make([]uint32, toks),
		sentStart: make([]int, sents+1),
		occStart:  make([]int, sents+1),
		itemSents: make([]int, 0, len(c.ids)+1),
		vocab:     len(vocab),
	}
	for _, run := range runs {
		for _, s := range run.itemSents {
			tc.itemSents = append(tc.itemSents, run.sentBase+s)
		}
	}
	tc.itemSents = append(tc.itemSents, sents)
	tc.sentStart[sents], tc.occStart[sents] = toks, occs
	parallel.Chunks(len(runs), 1, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			run, m := &runs[r], ids[r]
			for i, t := range run.tok {
				tc.tok[run.tokBase+i] = m[t]
			}
			o := run.occBase
			for s := range len(run.sentStart) - 1 {
				tc.sentStart[run.sentBase+s] = run.tokBase + run.sentStart[s]
				tc.occStart[run.sentBase+s] = o
				o += gramOccurrences(run.sentStart[s+1] - run.sentStart[s])
			}
			*run = tokenRun{} // let the collector have it
		}
	})
	return tc
}

// maxTokenRuns bounds the runs newTokenCorpus splits in parallel.
const maxTokenRuns = 4

// tokenRun is one worker's share of a tokenCorpus: a run of items split
// and interned with the run's own vocabulary.
type tokenRun struct {
	tok       []uint32
	sentStart []int // sentence s is tok[sentStart[s]:sentStart[s+1]]
	itemSents []int // the first sentence of each item
	vocab     map[string]uint32
	words     []string // words[id-1] has token id id
	occs      int      // n-grams of orders ≥ 2 in the run

	tokBase, sentBase, occBase int // where the run starts in the joined corpus
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
		run.occs += gramOccurrences(len(fields))
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
