package ngram

import "github.com/storyeval/storyeval/internal/pyunicode"

// tokenCorpus is a corpus split as Python's str.split() and interned to
// token ids: every sentence's token ids back to back, the candidate of
// item i at sentence itemSents[i] followed by its references. It is what
// CIDEr-D counts, held in four bytes per token.
type tokenCorpus struct {
	tok       []uint32 // token ids (from 1) of all sentences
	sentStart []int    // sentence s is tok[sentStart[s]:sentStart[s+1]]
	occStart  []int    // n-gram occurrences of sentence s, in occurrence order
	itemSents []int    // item i's sentences are itemSents[i] .. itemSents[i+1]-1
	refOccs   int      // n-gram occurrences in all references
}

// newTokenCorpus splits and interns every candidate and reference of c.
func newTokenCorpus(c *Corpus) *tokenCorpus {
	tc := &tokenCorpus{sentStart: []int{0}, occStart: []int{0}, itemSents: make([]int, 0, len(c.ids)+1)}
	vocab := map[string]uint32{}
	var fields []string
	add := func(s string, ref bool) {
		fields = pyunicode.AppendFields(fields[:0], s)
		for _, f := range fields {
			id, ok := vocab[f]
			if !ok {
				id = uint32(len(vocab) + 1)
				vocab[f] = id
			}
			tc.tok = append(tc.tok, id)
		}
		occ := gramOccurrences(len(fields))
		tc.sentStart = append(tc.sentStart, len(tc.tok))
		tc.occStart = append(tc.occStart, tc.occStart[len(tc.occStart)-1]+occ)
		if ref {
			tc.refOccs += occ
		}
	}
	for _, id := range c.ids {
		tc.itemSents = append(tc.itemSents, len(tc.sentStart)-1)
		add(c.cands[id], false)
		for _, r := range c.refs[id] {
			add(r, true)
		}
	}
	tc.itemSents = append(tc.itemSents, len(tc.sentStart)-1)
	return tc
}

// gramOccurrences is the number of n-grams of orders 1..maxOrder in a
// sentence of n tokens.
func gramOccurrences(n int) int {
	total := 0
	for k := 1; k <= maxOrder; k++ {
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

// gramKey identifies an n-gram by its token ids, zero-padded to maxOrder
// (token ids start at 1, so the padding also gives the order).
type gramKey [2]uint64

func makeGramKey(tok []uint32) gramKey {
	var t [maxOrder]uint64
	for i, x := range tok {
		t[i] = uint64(x)
	}
	return gramKey{t[0]<<32 | t[1], t[2]<<32 | t[3]}
}

// hash mixes a key into 64 well-spread bits (SplitMix64's finalizer):
// the low bits pick a partition, the high bits a table slot.
func (k gramKey) hash() uint64 {
	x := k[0] ^ k[1]*0xC2B2AE3D27D4EB4F
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}
