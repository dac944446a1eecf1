package postag

import (
	"slices"
	"strings"
	"testing"
)

// FuzzTag: any token sequence (split from the fuzz input on '\x00', so
// tokens may hold spaces, invalid UTF-8 or nothing) gets exactly one tag per
// token, each one of the model's classes, the same as the literal
// transcription of NLTK's code gives, without panicking.
func FuzzTag(f *testing.F) {
	for _, s := range []string{
		"The\x00quick\x00brown\x00fox",
		"\x00is\x00a\x00beautiful\x00day",
		"well-known\x001999\x00²³⁴⁵\x00İA\x00\xff\x00a b",
		"",
	} {
		f.Add(s)
	}
	tagger, err := English()
	if err != nil {
		f.Fatal(err)
	}
	lt := englishLiteral(f)
	valid := map[string]bool{}
	for _, c := range tagger.Classes() {
		valid[c] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		var tokens []string
		if s != "" {
			tokens = strings.Split(s, "\x00")
		}
		tags := tagger.Tag(tokens)
		if len(tags) != len(tokens) {
			t.Fatalf("%d tags for %d tokens %q", len(tags), len(tokens), tokens)
		}
		for i, tag := range tags {
			if !valid[tag] {
				t.Fatalf("token %q got tag %q, not one of the model's classes", tokens[i], tag)
			}
		}
		if want := lt.tag(tokens); !slices.Equal(tags, want) {
			t.Fatalf("Tag(%q) = %q, literal transcription %q", tokens, tags, want)
		}
	})
}
