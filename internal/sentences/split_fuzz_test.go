package sentences

import (
	"testing"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// FuzzSplit checks that Split never panics and that its spans are ordered,
// non-empty, within the text and cover every non-whitespace character: Punkt
// only drops whitespace between sentences.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"",
		"Mr. Smith went home. He was happy.",
		"Very bad acting!!! I promise.",
		`"(Sent1.)" Sent2. 'Sent3.' -- and then...  the end`,
		"st. [male] 's day . u.s. troops arrived jan. 5 .",
		"a. b. c. J. Bach wrote 3. fugues.\n\nNew paragraph!) x",
		"wow !! great ... really ? yes !",
		"\u00a0é. İ. ſ. \x1c. ... . . . end",
		"\xff\xfe. invalid utf-8. ok",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		spans := Spans(text)
		sents := Split(text)
		if len(sents) != len(spans) {
			t.Fatalf("Split gave %d sentences, Spans %d", len(sents), len(spans))
		}
		prev := 0
		for i, sp := range spans {
			if sp.Start < prev || sp.End <= sp.Start || sp.End > len(text) {
				t.Fatalf("span %d %+v out of order, empty or out of range (previous end %d, length %d)", i, sp, prev, len(text))
			}
			if sents[i] != text[sp.Start:sp.End] {
				t.Fatalf("sentence %d %q is not text[%d:%d]", i, sents[i], sp.Start, sp.End)
			}
			checkWhitespace(t, text[prev:sp.Start])
			prev = sp.End
		}
		checkWhitespace(t, text[prev:])
	})
}

func checkWhitespace(t *testing.T, gap string) {
	t.Helper()
	for len(gap) > 0 {
		r, size := utf8.DecodeRuneInString(gap)
		if !pyunicode.IsSpace(r) {
			t.Fatalf("non-whitespace %q dropped between sentences", gap)
		}
		gap = gap[size:]
	}
}
