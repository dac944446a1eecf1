package tokenize

import (
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
	ranks    map[string]int // "a b" to merge priority
	specials map[string]bool

	mu    sync.Mutex
	cache map[string][]string
}

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

// merge is CLIP's bpe(): repeatedly merge every occurrence (left to right)
// of the adjacent pair with the lowest rank.
func (m *bpeMerger) merge(word string) []string {
	n := utf8.RuneCountInString(word)
	syms := make([]string, 0, n)
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
	for len(syms) > 1 {
		best, bestRank := -1, 0
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := m.ranks[syms[i]+" "+syms[i+1]]; ok && (best < 0 || r < bestRank) {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		first, second := syms[best], syms[best+1]
		merged := syms[:0:0]
		for i := 0; i < len(syms); {
			if i+1 < len(syms) && syms[i] == first && syms[i+1] == second {
				merged = append(merged, first+second)
				i += 2
				continue
			}
			merged = append(merged, syms[i])
			i++
		}
		syms = merged
	}
	return syms
}
