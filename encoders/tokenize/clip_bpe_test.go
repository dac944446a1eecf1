package tokenize

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveBPE is CLIP's bpe() as written in the reference: rescan for the
// lowest-ranked pair, merge its occurrences left to right, repeat.
func naiveBPE(ranks map[symbolPair]int, word string) []string {
	var syms []string
	for _, r := range word {
		syms = append(syms, string(r))
	}
	syms[len(syms)-1] += "</w>"
	for len(syms) > 1 {
		best, bestRank := -1, 0
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := ranks[symbolPair{syms[i], syms[i+1]}]; ok && (best < 0 || r < bestRank) {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		a, b := syms[best], syms[best+1]
		var merged []string
		for i := 0; i < len(syms); {
			if i+1 < len(syms) && syms[i] == a && syms[i+1] == b {
				merged = append(merged, a+b)
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

func TestBPEMatchesReferenceLoop(t *testing.T) {
	_, _, clip := loadTestTokenizers(t)
	rng := rand.New(rand.NewSource(1))
	words := []string{"supercalifragilisticexpialidocious", "aaaaaaaaa", "abababab", "x"}
	for range 300 {
		n := 1 + rng.Intn(40)
		var b strings.Builder
		for range n {
			b.WriteByte(byte('a' + rng.Intn(26)))
		}
		words = append(words, b.String())
	}
	for _, w := range words {
		want := naiveBPE(clip.merger.ranks, w)
		if got := clip.merger.merge(w); !reflect.DeepEqual(got, want) {
			t.Fatalf("merge(%q) = %q, reference loop %q", w, got, want)
		}
	}

	// A random table over a small alphabet breaks the order a trained
	// table has (a merge using a symbol ranked before the merge making it);
	// the rounds must still follow the reference loop.
	for trial := range 200 {
		ranks := map[symbolPair]int{}
		symbols := []string{"a", "b", "c", "a</w>", "b</w>", "c</w>"}
		perm := rng.Perm(30) // ranks are line numbers: distinct
		for i := range 30 {
			x, y := symbols[rng.Intn(len(symbols))], symbols[rng.Intn(len(symbols))]
			if strings.HasSuffix(x, "</w>") {
				continue
			}
			if _, ok := ranks[symbolPair{x, y}]; !ok {
				ranks[symbolPair{x, y}] = perm[i]
			}
			symbols = append(symbols, x+y)
		}
		m := &bpeMerger{ranks: ranks}
		for range 20 {
			var b strings.Builder
			for range 1 + rng.Intn(16) {
				b.WriteByte("abc"[rng.Intn(3)])
			}
			w := b.String()
			want := naiveBPE(ranks, w)
			if got := m.merge(w); !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d: merge(%q) = %q, reference loop %q (ranks %v)", trial, w, got, want, ranks)
			}
		}
	}
}

// FuzzBPE checks the heap-based merge against the reference loop on words
// of up to 64 characters with the real merge table.
func FuzzBPE(f *testing.F) {
	for _, w := range []string{"hello", "aaaaaaa", "supercalifragilistic", "ðŁĺĢ", "x"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if w == "" || utf8.RuneCountInString(w) > 64 {
			return
		}
		_, _, clip := loadTestTokenizers(t)
		w = byteLevel(w)
		want := naiveBPE(clip.merger.ranks, w)
		if got := clip.merger.merge(w); !reflect.DeepEqual(got, want) {
			t.Fatalf("merge(%q) = %q, reference loop %q", w, got, want)
		}
	})
}
