package tokenize

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// byteToRune is GPT-2/CLIP's bytes_to_unicode: printable Latin-1 bytes map
// to themselves, the other 68 bytes to U+0100 onwards in byte order.
var byteToRune = func() (t [256]rune) {
	next := rune(256)
	for b := range 256 {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			t[b] = rune(b)
		} else {
			t[b] = next
			next++
		}
	}
	return t
}()

// byteLevel spells the UTF-8 bytes of s with byteToRune.
func byteLevel(s string) string {
	var b strings.Builder
	b.Grow(2 * len(s))
	for i := 0; i < len(s); i++ {
		b.WriteRune(byteToRune[s[i]])
	}
	return b.String()
}

// bpeMerger applies CLIP's merges to one byte-level word, with a bounded
// cache (CLIP keeps an unbounded one; results are identical).
type bpeMerger struct {
	ranks    map[symbolPair]int // merge priority, lower first
	specials map[string]bool

	mu    sync.Mutex
	cache map[string][]string
}

// symbolPair is one merge of merges.txt.
type symbolPair struct{ a, b string }

// maxBPECache bounds the words a merger remembers.
const maxBPECache = 1 << 16

// pieces returns the BPE pieces of a byte-level word, the last one ending
// in "</w>"; the special tokens come back whole, as CLIP's pre-filled cache
// does.
func (m *bpeMerger) pieces(word string) []string {
	if m.specials[word] {
		return []string{word}
	}
	m.mu.Lock()
	cached, ok := m.cache[word]
	m.mu.Unlock()
	if ok {
		return cached
	}
	out := m.merge(word)
	m.mu.Lock()
	if len(m.cache) >= maxBPECache {
		clear(m.cache)
	}
	m.cache[word] = out
	m.mu.Unlock()
	return out
}

// merge is CLIP's bpe(): while some adjacent pair has a rank, take the
// pair of lowest rank and merge all its occurrences, left to right. The
// reference rescans the word for every merge (quadratic in its length);
// this keeps the pairs in a heap and processes one rank per round, which
// gives the same result on any merge table in O(n log n).
func (m *bpeMerger) merge(word string) []string {
	syms := make([]string, 0, len(word))
	for i, r := range word {
		w := len(string(r))
		if r == utf8.RuneError {
			_, w = utf8.DecodeRuneInString(word[i:])
		}
		syms = append(syms, word[i:i+w])
	}
	syms[len(syms)-1] += "</w>"
	if len(syms) == 1 {
		return syms
	}
	n := len(syms)
	next := make([]int, n)
	prev := make([]int, n)
	for i := range syms {
		next[i], prev[i] = i+1, i-1
	}
	next[n-1] = -1
	var h pairHeap
	push := func(left int) {
		if left < 0 || next[left] < 0 {
			return
		}
		a, b := syms[left], syms[next[left]]
		if r, ok := m.ranks[symbolPair{a, b}]; ok {
			h.push(pairEntry{rank: r, left: left, a: a, b: b})
		}
	}
	for i := 0; i+1 < n; i++ {
		push(i)
	}
	var round []pairEntry
	for h.len() > 0 {
		// One round: every queued occurrence of the lowest-ranked pair, in
		// word order; stale entries (a side merged since) are skipped.
		rank := h.min().rank
		round = round[:0]
		for h.len() > 0 && h.min().rank == rank {
			round = append(round, h.pop())
		}
		sortByLeft(round)
		for _, e := range round {
			r := next[e.left]
			if syms[e.left] != e.a || r < 0 || syms[r] != e.b {
				continue
			}
			syms[e.left] = e.a + e.b
			next[e.left] = next[r]
			if next[r] >= 0 {
				prev[next[r]] = e.left
			}
			syms[r] = ""
			push(prev[e.left])
			push(e.left)
		}
	}
	out := make([]string, 0, n)
	for i := 0; i >= 0; i = next[i] {
		out = append(out, syms[i])
	}
	return out
}

// pairEntry is one queued occurrence of a ranked pair: the symbols a and b
// starting at node left.
type pairEntry struct {
	rank int
	left int
	a, b string
}

// pairHeap is a binary min-heap of entries by rank.
type pairHeap struct{ e []pairEntry }

func (h *pairHeap) len() int           { return len(h.e) }
func (h *pairHeap) min() pairEntry     { return h.e[0] }
func (h *pairHeap) less(i, j int) bool { return h.e[i].rank < h.e[j].rank }

func (h *pairHeap) push(e pairEntry) {
	h.e = append(h.e, e)
	for i := len(h.e) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.e[i], h.e[p] = h.e[p], h.e[i]
		i = p
	}
}

func (h *pairHeap) pop() pairEntry {
	top := h.e[0]
	last := len(h.e) - 1
	h.e[0] = h.e[last]
	h.e = h.e[:last]
	for i := 0; ; {
		l, r, small := 2*i+1, 2*i+2, i
		if l < len(h.e) && h.less(l, small) {
			small = l
		}
		if r < len(h.e) && h.less(r, small) {
			small = r
		}
		if small == i {
			break
		}
		h.e[i], h.e[small] = h.e[small], h.e[i]
		i = small
	}
	return top
}

// sortByLeft orders a round's entries by position.
func sortByLeft(es []pairEntry) {
	slices.SortFunc(es, func(x, y pairEntry) int { return cmp.Compare(x.left, y.left) })
}
