package nphrase

import (
	"strings"
	"testing"
)

// FuzzStory checks that any text chunks without panicking and that every
// chunk is lower-case, non-empty and unique within its sentence.
func FuzzStory(f *testing.F) {
	for _, s := range []string{
		"the bride and groom leaned forward for a quick kiss .",
		"by midday thousands were in attendance , the biggest turn out yet !",
		"a man 's hat", "\"Quoted\" words, a dog's bone.", "", "...", "\xff\xfe the",
		"this morning we saw them. one day it rained.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sents, err := Sentences(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sents {
			seen := map[string]bool{}
			for _, c := range s {
				if c == "" || seen[c] {
					t.Fatalf("empty or repeated chunk %q in %q", c, s)
				}
				seen[c] = true
				if strings.ToLower(c) != c && strings.ToValidUTF8(c, "") == c && isASCII(c) {
					t.Fatalf("chunk %q is not lower-case", c)
				}
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
