package stylem

import (
	"fmt"
	"math"
	"slices"

	"github.com/storyeval/storyeval/internal/npmath"
	"github.com/storyeval/storyeval/internal/pairwise"
)

// Scores holds one caption's scores under every style of a table, indexed
// like Table.Styles().
type Scores struct {
	// OnlyStyle is the mean over orders n of the mean CNG of the caption's
	// distinct n-grams of order n (reference-free).
	OnlyStyle []float64
	// OnlyStyleExist divides each order's CNG sum by its number of non-zero
	// CNG values instead, and skips orders whose sum is 0.
	OnlyStyleExist []float64
	// StyleCIDEr is CIDEr-D against the references with CNG values as
	// n-gram weights; NaN when the caption was scored without references.
	StyleCIDEr []float64
}

// resize makes every slice of s hold n values, reusing storage.
func (s *Scores) resize(n int) {
	grow := func(x []float64) []float64 {
		if cap(x) < n {
			return make([]float64, n)
		}
		return x[:n]
	}
	s.OnlyStyle = grow(s.OnlyStyle)
	s.OnlyStyleExist = grow(s.OnlyStyleExist)
	s.StyleCIDEr = grow(s.StyleCIDEr)
}

// Score scores caption (tokens as Tokenize returns them, "<eos>" included)
// under every style of the table, writing into dst (nil allocates). refs are
// the tokenized references for StyleCIDEr; with none, StyleCIDEr is NaN
// (the reference asserts at least one).
//
// Term frequency is ignored: each distinct n-gram weighs its CNG once, and
// an n-gram absent from a style's captions weighs 0 but still counts in the
// means. The StyleCIDEr quirks are CIDEr-D's (pycocoevalcap cider_scorer.py, which preStyleM's scorer copies): σ = 6, ×10, the
// length is the number of bigrams, clipping min(h, r)·r, cosine only when
// both norms are non-zero, mean over n = 1..4, divided by #refs.
//
// Matches the reference implementation, which first replaces " unk " by
// " UNK " in the space-joined caption and references (non-overlapping, so
// in "unk unk" only the first is replaced). Where the reference raises
// KeyError (a style without any n-gram of the caption's order), the
// n-gram weighs 0.
func (t *Table) Score(caption []string, refs [][]string, dst *Scores) (*Scores, error) {
	if len(caption) == 0 {
		return nil, fmt.Errorf("empty caption (Tokenize yields at least %q)", EOS)
	}
	for i, r := range refs {
		if len(r) == 0 {
			return nil, fmt.Errorf("reference %d is empty (Tokenize yields at least %q)", i, EOS)
		}
	}
	if dst == nil {
		dst = &Scores{}
	}
	nS := len(t.styles)
	dst.resize(nS)
	sc := t.scratch()
	defer t.scratchPool.Put(sc)

	hyp := sc.prepare(t, caption, &sc.hyp)
	t.onlyStyle(hyp, sc, dst)
	if len(refs) == 0 {
		for s := range dst.StyleCIDEr {
			dst.StyleCIDEr[s] = math.NaN()
		}
		return dst, nil
	}
	t.styleCIDEr(hyp, refs, sc, dst)
	return dst, nil
}

// OnlyStyle returns OnlyStyle(caption, style).
func (t *Table) OnlyStyle(style string, caption []string) (float64, error) {
	s, err := t.styleIndex(style)
	if err != nil {
		return 0, err
	}
	sc, err := t.Score(caption, nil, nil)
	if err != nil {
		return 0, err
	}
	return sc.OnlyStyle[s], nil
}

// StyleCIDEr returns StyleCIDEr(caption, refs) under style.
func (t *Table) StyleCIDEr(style string, caption []string, refs [][]string) (float64, error) {
	s, err := t.styleIndex(style)
	if err != nil {
		return 0, err
	}
	if len(refs) == 0 {
		return 0, fmt.Errorf("StyleCIDEr needs at least one reference")
	}
	sc, err := t.Score(caption, refs, nil)
	if err != nil {
		return 0, err
	}
	return sc.StyleCIDEr[s], nil
}

// scored is one tokenized text as scoring needs it.
type scored struct {
	keys    []ngramKey
	idx     []int32 // table index of keys[i], or -1 when absent from the table
	count   [maxOrder]int
	bigrams int // the CIDEr-D "length": number of bigram positions
}

// scoreScratch is the per-call working memory of Score.
type scoreScratch struct {
	hyp, ref scored
	ids      []uint32
	local    map[string]uint32
	seen     map[ngramKey]struct{}
	toks     []string
	chain    []int32
	inRef    map[int32]struct{}
	// Per style s and order n at s*maxOrder+n:
	sum, nonzero, norm2, refNorm2, dot []float64
	cider                              []float64 // per style s: 4 accumulated n-gram scores
}

func (t *Table) scratch() *scoreScratch {
	if v := t.scratchPool.Get(); v != nil {
		return v.(*scoreScratch)
	}
	n := len(t.styles) * maxOrder
	return &scoreScratch{
		local: map[string]uint32{}, seen: map[ngramKey]struct{}{}, inRef: map[int32]struct{}{},
		sum: make([]float64, n), nonzero: make([]float64, n), norm2: make([]float64, n),
		refNorm2: make([]float64, n), dot: make([]float64, n), cider: make([]float64, n),
	}
}

// markUnk applies the reference's hypo.replace(' unk ', ' UNK ') to tokens
// joined by single spaces.
func markUnk(dst, toks []string) []string {
	dst = append(dst[:0], toks...)
	replaced := false // the previous match consumed the space before dst[i]
	for i := 1; i+1 < len(dst); i++ {
		replaced = !replaced && dst[i] == "unk"
		if replaced {
			dst[i] = "UNK"
		}
	}
	return dst
}

// prepare interns tokens (unknown ones get ids beyond the vocabulary, so
// their n-grams stay distinct but match nothing) and lists distinct n-grams.
func (sc *scoreScratch) prepare(t *Table, tokens []string, out *scored) *scored {
	sc.toks = markUnk(sc.toks, tokens)
	sc.ids = sc.ids[:0]
	clear(sc.local)
	for _, tok := range sc.toks {
		id, ok := t.vocab.ids[tok]
		if !ok {
			if id, ok = sc.local[tok]; !ok {
				id = uint32(len(t.vocab.tokens) + 1 + len(sc.local))
				sc.local[tok] = id
			}
		}
		sc.ids = append(sc.ids, id)
	}
	// chain[i*maxOrder+n-1] is the table id of the n-gram starting at i,
	// or -1: walking the trie from each start finds all its n-grams with
	// one map access each.
	L := len(sc.ids)
	sc.chain = slices.Grow(sc.chain[:0], L*maxOrder)[:L*maxOrder]
	for i := range L {
		var p uint32 // parent id + 1; 0 is the root
		for n := 1; n <= maxOrder; n++ {
			at := i*maxOrder + n - 1
			if i+n > L || (n > 1 && p == 0) {
				sc.chain[at] = -1
				p = 0
				continue
			}
			id, ok := t.child(p, sc.ids[i+n-1])
			if !ok {
				sc.chain[at] = -1
				p = 0
				continue
			}
			sc.chain[at] = int32(id)
			p = id + 1
		}
	}
	// Distinct n-grams in precook's order: all unigrams, then bigrams, …
	out.keys = out.keys[:0]
	out.idx = out.idx[:0]
	out.count = [maxOrder]int{}
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= L; i++ {
			var k ngramKey
			copy(k[:n], sc.ids[i:i+n])
			if _, dup := sc.seen[k]; dup {
				continue
			}
			sc.seen[k] = struct{}{}
			out.keys = append(out.keys, k)
			out.idx = append(out.idx, sc.chain[i*maxOrder+n-1])
			out.count[n-1]++
		}
	}
	clear(sc.seen)
	out.bigrams = max(0, L-1)
	return out
}

// onlyStyle fills dst.OnlyStyle and dst.OnlyStyleExist, and leaves the
// hypothesis' squared norms in sc.norm2 for StyleCIDEr.
func (t *Table) onlyStyle(h *scored, sc *scoreScratch, dst *Scores) {
	clear(sc.sum)
	clear(sc.nonzero)
	clear(sc.norm2)
	// Styles without the n-gram add 0, which leaves every running sum as it
	// is, so only the styles listed for the n-gram are visited; each style's
	// sums still see its values in the reference's order.
	for j, k := range h.keys {
		i := h.idx[j]
		if i < 0 {
			continue
		}
		n := k.order() - 1
		for e := t.off[i]; e < t.off[i+1]; e++ {
			c := t.entCNG[e]
			at := int(t.entStyle[e])*maxOrder + n
			sc.sum[at] += c
			if c != 0 {
				sc.nonzero[at]++
			}
			sc.norm2[at] += float64(c * c)
		}
	}
	var each, exist [maxOrder]float64
	for s := range t.styles {
		ne, nx := 0, 0
		for n := 0; n < maxOrder; n++ {
			if h.count[n] == 0 {
				continue
			}
			sum := sc.sum[s*maxOrder+n]
			each[ne] = sum / float64(h.count[n])
			ne++
			if sum != 0 {
				exist[nx] = sum / sc.nonzero[s*maxOrder+n]
				nx++
			}
		}
		dst.OnlyStyle[s] = pyMean(each[:ne])
		dst.OnlyStyleExist[s] = pyMean(exist[:nx])
	}
}

// pyMean is sum(xs)/len(xs) with Python's left-to-right sum, 0 when empty
// (the reference appends 0 for a caption without n-grams).
func pyMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// styleCIDEr fills dst.StyleCIDEr; sc.norm2 holds the hypothesis' norms.
func (t *Table) styleCIDEr(h *scored, refs [][]string, sc *scoreScratch, dst *Scores) {
	clear(sc.cider)
	for _, ref := range refs {
		r := sc.prepare(t, ref, &sc.ref)
		clear(sc.refNorm2)
		clear(sc.dot)
		clear(sc.inRef)
		for j, k := range r.keys {
			i := r.idx[j]
			if i < 0 {
				continue
			}
			sc.inRef[i] = struct{}{}
			n := k.order() - 1
			for e := t.off[i]; e < t.off[i+1]; e++ {
				c := t.entCNG[e]
				sc.refNorm2[int(t.entStyle[e])*maxOrder+n] += float64(c * c)
			}
		}
		// Σ min(h_g, r_g)·r_g over the hypothesis' n-grams in its order: h_g
		// and r_g are both CNG_s(g), so a shared n-gram adds c·c and any
		// other adds min(c, 0)·0 = ±0, which changes no sum.
		for j, k := range h.keys {
			i := h.idx[j]
			if i < 0 {
				continue
			}
			if _, ok := sc.inRef[i]; !ok {
				continue
			}
			n := k.order() - 1
			for e := t.off[i]; e < t.off[i+1]; e++ {
				c := t.entCNG[e]
				sc.dot[int(t.entStyle[e])*maxOrder+n] += float64(min(c, c) * c)
			}
		}
		pen := npmath.CIDErLengthPenalty(h.bigrams - r.bigrams)
		for at, v := range sc.dot {
			if v == 0 {
				continue // 0 / norms · penalty adds 0, which changes no sum
			}
			nh, nr := math.Sqrt(sc.norm2[at]), math.Sqrt(sc.refNorm2[at])
			if nh != 0 && nr != 0 {
				v /= nh * nr
			}
			sc.cider[at] += float64(v * pen) // no FMA: numpy rounds the product
		}
	}
	for s := range t.styles {
		v := pairwise.Mean(sc.cider[s*maxOrder : (s+1)*maxOrder])
		v /= float64(len(refs))
		dst.StyleCIDEr[s] = v * 10
	}
}
