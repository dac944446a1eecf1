package rovist

import (
	"fmt"
	"math"
	"slices"

	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
)

// DefaultBlockLength is the length of the token blocks compared within a
// sentence, the reference scorer's --intra_sent_ngram_len default.
const DefaultBlockLength = 4

// NROptions configures NonRedundancy. The zero value gives the reference
// scorer's behaviour.
type NROptions struct {
	// SetJaccard scores a pair of token lists with the set Jaccard index
	// |A∩B| / |A∪B| over distinct tokens, as the paper defines it, instead
	// of the reference code's count of equal (a, b) token pairs over |A∪B|,
	// which can exceed 1 when tokens repeat.
	SetJaccard bool

	// BlockLength is the length of the consecutive, non-overlapping blocks
	// compared within a sentence; 0 means DefaultBlockLength.
	BlockLength int

	// ErrorOnEmptyUnion makes a pair of sentences that are both empty
	// after the last-token drop an error, as in the original scorer, which
	// raises ZeroDivisionError there. By default such pairs are skipped,
	// as the dHM re-implementation (akskuchi/dHM-visual-storytelling,
	// evaluate/eval_C_R.py) does.
	ErrorOnEmptyUnion bool
}

// NRResult is the RoViST-NR score of one story with the pair scores it was
// averaged from, so that a caller can see what repeats.
type NRResult struct {
	// Score is 1 − mean(mean(Inter), mean(Intra) or 0): 1 for no
	// repetition; it can fall below 0, since the reference numerator can
	// exceed the union. NaN when Defined is false.
	Score float64
	// Defined is false when no inter-sentence pair could be scored: the
	// story has fewer than two sentences (the reference yields NaN and the
	// published files omit the story) or every pair was skipped.
	Defined bool

	// Tokens holds the tokens scored, per sentence: NLTK's word_tokenize of
	// the sentence without its last token.
	Tokens [][]string
	// Inter holds every pair of sentences (First < Second), in the
	// reference's order: for each Second from 1, each First below it.
	Inter []NRPair
	// Intra holds, for each sentence, block k against block k+1 (Second =
	// First + 1 are block numbers, Sentence the sentence index).
	Intra []NRPair
	// InterMean and IntraMean are the numpy means of the pair scores;
	// IntraMean is 0 when no sentence has two blocks, as in the reference.
	InterMean, IntraMean float64
	// Skipped counts the inter-sentence pairs left out because both
	// sentences were empty.
	Skipped int
}

// NRPair is one compared pair of token lists.
type NRPair struct {
	// Sentence is the sentence of an intra-sentence pair; 0 for Inter.
	Sentence int
	// First and Second are sentence indices (Inter) or block indices
	// (Intra).
	First, Second int
	// Shared is the numerator: the number of equal token pairs (or of
	// shared distinct tokens with SetJaccard). Union is the number of
	// distinct tokens in both lists.
	Shared, Union int
	// Score is Shared / Union.
	Score float64
}

// NonRedundancy returns RoViST-NR for a story, reproducing the reference
// scorer (usydnlp/rovist scripts/non_redun_scorer.py) bit for bit: the story
// is split with NLTK's sent_tokenize, each sentence tokenized with
// word_tokenize (which re-splits it) and scored by NonRedundancyTokens.
// To score many stories, an NRScorer saves allocations.
//
// Matches the reference implementation, which drops the last token of every
// sentence whatever it is (meant to be the final punctuation), and compares
// tokens case-sensitively.
func NonRedundancy(story string, opts NROptions) (NRResult, error) {
	sc := NRScorer{Options: opts}
	return sc.Score(story)
}

// NRScorer computes NonRedundancy for many stories, reusing its scratch
// space (tokenizer buffers, token tables) from one story to the next. The
// zero value scores with the reference's options. An NRScorer must not be
// used by two goroutines at once; give each goroutine its own.
type NRScorer struct {
	// Options configures the score; the zero value is the reference's
	// behaviour.
	Options NROptions

	split   sentences.Splitter
	spans   []sentences.Span
	tk      words.Tokenizer
	scratch nrScratch
}

// Score returns RoViST-NR for story, as NonRedundancy(story,
// &s.Options).
func (s *NRScorer) Score(story string) (NRResult, error) {
	s.spans = s.split.AppendSpans(s.spans[:0], story)
	longest := 0
	for _, sp := range s.spans {
		longest = max(longest, sp.End-sp.Start)
	}
	s.tk.Grow(longest)
	toks := make([][]string, len(s.spans))
	// The tokens of all sentences, back to back; a token with its
	// separator averages about five bytes.
	all := make([]string, 0, len(story)/4+16)
	for i, sp := range s.spans {
		start := len(all)
		all = s.tk.Tokenize(all, story[sp.Start:sp.End])
		if len(all) > start {
			all = all[:len(all)-1]
		}
		toks[i] = all[start:len(all):len(all)]
	}
	return s.scratch.score(toks, &s.Options)
}

// NonRedundancyTokens scores a story given as the tokens of each sentence,
// already without the tokens that should not count. The pair score is the
// reference's "Jaccard": the number of equal (a, b) token pairs over the
// number of distinct tokens in both lists (or the set Jaccard index, see
// NROptions.SetJaccard). Inter is every pair of sentences; Intra compares,
// within each sentence, consecutive non-overlapping blocks of BlockLength
// tokens. The score is 1 − mean(mean(Inter), mean(Intra) or 0), every mean
// computed with numpy's pairwise summation.
//
// Matches the reference implementation, which compares a sentence's final,
// shorter block with the full block before it. The result keeps
// sentenceTokens as its Tokens field.
func NonRedundancyTokens(sentenceTokens [][]string, opts NROptions) (NRResult, error) {
	var sc nrScratch
	return sc.score(sentenceTokens, &opts)
}

// nrScratch is the working memory of one score, kept by an NRScorer.
type nrScratch struct {
	ids    [][]uint32 // token ids per sentence, slices of flat
	flat   []uint32
	table  []uint32
	seen   []string
	marks  []uint32
	countB []int
	scores []float64
}

func (sc *nrScratch) score(sentenceTokens [][]string, o *NROptions) (NRResult, error) {
	block := o.BlockLength
	switch {
	case block == 0:
		block = DefaultBlockLength
	case block < 0:
		return NRResult{}, fmt.Errorf("NonRedundancy: BlockLength %d is negative", block)
	}

	vocab := sc.tokenIDs(sentenceTokens)
	ids := sc.ids
	sc.marks = slices.Grow(sc.marks[:0], 2*vocab)[:2*vocab]
	sc.countB = slices.Grow(sc.countB[:0], vocab)[:vocab]
	clear(sc.marks)
	ps := pairScorer{seen: sc.marks[:vocab], inB: sc.marks[vocab:], countB: sc.countB, set: o.SetJaccard}
	res := NRResult{Tokens: sentenceTokens}

	n := len(ids)
	if n > 1 {
		res.Inter = make([]NRPair, 0, n*(n-1)/2)
	}
	for i := 1; i < n; i++ {
		for j := 0; j < i; j++ {
			shared, union := ps.score(ids[i], ids[j])
			if union == 0 {
				if o.ErrorOnEmptyUnion {
					return NRResult{}, fmt.Errorf("NonRedundancy: sentences %d and %d are both empty after dropping their last token (the reference scorer divides by zero)", j, i)
				}
				res.Skipped++
				continue
			}
			res.Inter = append(res.Inter, NRPair{First: j, Second: i, Shared: shared, Union: union,
				Score: float64(shared) / float64(union)})
		}
	}
	intra := 0
	for _, t := range ids {
		intra += max(0, (len(t)+block-1)/block-1)
	}
	if intra > 0 {
		res.Intra = make([]NRPair, 0, intra)
	}
	for s, t := range ids {
		for k := 0; k*block < len(t); k++ {
			prev := t[k*block : min((k+1)*block, len(t))]
			next := t[min((k+1)*block, len(t)):min((k+2)*block, len(t))]
			if len(next) == 0 {
				continue
			}
			shared, union := ps.score(prev, next)
			res.Intra = append(res.Intra, NRPair{Sentence: s, First: k, Second: k + 1,
				Shared: shared, Union: union, Score: float64(shared) / float64(union)})
		}
	}

	scores := sc.scores[:0]
	for _, p := range res.Inter {
		scores = append(scores, p.Score)
	}
	res.InterMean = pairwise.Mean(scores) // NaN when empty, as np.mean
	if len(res.Intra) > 0 {
		scores = scores[:0]
		for _, p := range res.Intra {
			scores = append(scores, p.Score)
		}
		res.IntraMean = pairwise.Mean(scores)
	}
	sc.scores = scores
	res.Score = 1 - pairwise.Mean([]float64{res.InterMean, res.IntraMean})
	res.Defined = len(res.Inter) > 0
	if !res.Defined {
		res.Score = math.NaN()
	}
	return res, nil
}

// tokenIDs numbers the distinct tokens of a story into sc.ids, so that
// pairs are compared as small integers, and returns how many there are. It
// uses a small open-addressing table sized for the story rather than a map,
// which would allocate more.
func (sc *nrScratch) tokenIDs(sentenceTokens [][]string) (vocab int) {
	total := 0
	for _, t := range sentenceTokens {
		total += len(t)
	}
	size := 16
	for size < 2*total {
		size *= 2
	}
	sc.table = slices.Grow(sc.table[:0], size)[:size] // id+1 per slot, 0 if empty
	clear(sc.table)
	table := sc.table
	seen := sc.seen[:0]
	flat := slices.Grow(sc.flat[:0], total)
	ids := slices.Grow(sc.ids[:0], len(sentenceTokens))
	for _, t := range sentenceTokens {
		start := len(flat)
		for _, w := range t {
			slot := tokenHash(w) & uint32(size-1)
			for table[slot] != 0 && seen[table[slot]-1] != w {
				slot = (slot + 1) & uint32(size-1)
			}
			if table[slot] == 0 {
				seen = append(seen, w)
				table[slot] = uint32(len(seen))
			}
			flat = append(flat, table[slot]-1)
		}
		ids = append(ids, flat[start:len(flat):len(flat)])
	}
	clear(seen) // drop references to the story's tokens
	sc.seen, sc.flat, sc.ids = seen[:0], flat, ids
	return len(seen)
}

// tokenHash mixes a token's length with its first, middle and last bytes:
// cheap, and distinct enough for a story's few dozen tokens, since equal
// hashes only cost a string comparison in the probe.
func tokenHash(w string) uint32 {
	n := len(w)
	if n == 0 {
		return 0
	}
	h := uint32(n) | uint32(w[0])<<8 | uint32(w[n/2])<<16 | uint32(w[n-1])<<24
	return (h * 0x9e3779b1) >> 7
}

// pairScorer computes pair numerators and unions with generation-stamped
// marks instead of allocating a set per pair.
type pairScorer struct {
	seen, inB []uint32 // stamps per token id
	countB    []int    // occurrences in b of ids stamped in inB
	stamp     uint32
	set       bool
}

// score returns the numerator and |set(a) ∪ set(b)| for token lists a, b.
// The reference's numerator, the number of equal (x, y) pairs with x from
// a and y from b, is the sum over a's tokens of their counts in b.
func (p *pairScorer) score(a, b []uint32) (shared, union int) {
	p.stamp++
	for _, x := range b {
		if p.inB[x] != p.stamp {
			p.inB[x] = p.stamp
			p.countB[x] = 0
		}
		p.countB[x]++
	}
	for _, x := range a {
		inB := p.inB[x] == p.stamp
		if !p.set && inB {
			shared += p.countB[x]
		}
		if p.seen[x] != p.stamp {
			p.seen[x] = p.stamp
			union++
			if p.set && inB {
				shared++
			}
		}
	}
	for _, x := range b {
		if p.seen[x] != p.stamp {
			p.seen[x] = p.stamp
			union++
		}
	}
	return shared, union
}
