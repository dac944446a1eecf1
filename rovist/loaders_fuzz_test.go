package rovist

import (
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func FuzzReadGloVe(f *testing.F) {
	f.Add("unk 0.1 0.2\ncat 1 2\n", "cat")
	f.Add("unk 1 2 3\ncat 1 2\n", "cat")
	f.Add("\x1f\x8b\x08\x00", "")
	f.Add("a 1e40 2\n", "a")
	f.Fuzz(func(t *testing.T, text, word string) {
		g, err := ReadGloVe(strings.NewReader(text), "fuzz", []string{word}, GloVeOptions{Limits: limits.Limits{MaxLineBytes: 1 << 12}})
		if err != nil {
			return
		}
		if g.Dim() < 1 {
			t.Fatalf("dim %d", g.Dim())
		}
		for w, v := range g.vecs {
			if w != word && w != GloVeUnknown {
				t.Fatalf("kept %q, asked for %q", w, word)
			}
			if len(v) != g.Dim() {
				t.Fatalf("%q has %d values, dim %d", w, len(v), g.Dim())
			}
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("%q holds %v", w, x)
				}
			}
		}
	})
}

func FuzzParseIDF(f *testing.F) {
	for _, p := range [][]byte{pickleStrNum, pickleStrStr, pickleIntKey, pickleList, pickleTrunc} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idf, err := ParseIDF(data, "fuzz")
		if err != nil {
			return
		}
		for w, v := range idf {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q: %v", w, v)
			}
		}
	})
}
