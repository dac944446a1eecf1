package train

import (
	"testing"
	"unicode/utf8"

	"github.com/storyeval/storyeval/story"
)

// FuzzSOPPairs checks that any story text gives an error (invalid UTF-8
// only) or pairs that come as (A, B, 1) followed by (B, A, 0) with A and B
// different after stripping.
func FuzzSOPPairs(f *testing.F) {
	for _, s := range []string{"", "One. Two.", "Same. Same. Other!", "a\xffb. c.", "Mr. Smith went. He saw it? Yes!\n\nEnd."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pairs, err := SOPPairs([]story.Story{{ID: "x", Text: text}})
		if !utf8.ValidString(text) {
			if err == nil {
				t.Fatal("invalid UTF-8 accepted")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(pairs)%2 != 0 {
			t.Fatalf("%d pairs, want an even number", len(pairs))
		}
		for i := 0; i < len(pairs); i += 2 {
			p, q := pairs[i], pairs[i+1]
			if p.Label != 1 || q.Label != 0 || p.A != q.B || p.B != q.A || pyStrip(p.A) == pyStrip(p.B) {
				t.Fatalf("pairs %d and %d: %+v %+v", i, i+1, p, q)
			}
		}
	})
}
