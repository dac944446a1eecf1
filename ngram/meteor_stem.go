package ngram

import (
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/kljensen/snowball/english"
)

// meteorStem is the Snowball English (Porter2) stem Meteor 1.5 uses
// (org.tartarus.snowball.ext.englishStemmer via SnowballStemmerWrapper).
// github.com/kljensen/snowball agrees with that Java stemmer on all 157,629
// words of Meteor's synonym data; this wrapper removes the two places where
// the Go package does more than the Java one: it trims Unicode white space and
// lower-cases its input, and it counts the "two letters or fewer" rule in
// bytes rather than UTF-16 units. Matches the reference implementation, whose
// stemmer also leaves the curly apostrophes ‘ ’ ‛ alone (the Go package turns
// them into ', which it then strips: "‘fancy’" would stem to "fanci") and
// deletes only the first of several leading apostrophes.
func meteorStem(word string) string {
	n := 0
	for _, r := range word {
		n++
		if r >= 0x10000 {
			n++ // a surrogate pair in Java
		}
	}
	if n < 3 {
		// Snowball's "not hop 3": words shorter than three chars are kept.
		return word
	}
	lead := 0
	if strings.HasPrefix(word, "''") {
		// Java's prelude deletes one leading apostrophe and stems the rest
		// with its other apostrophes, which the Go package would trim.
		word = word[1:]
		lead = len(word) - len(strings.TrimLeft(word, "'"))
		if body := word[lead:]; body == "" || body == "s" || body == "s'" {
			// Only Step 0 applies: the longest of 's', 's and ' goes.
			for _, suf := range []string{"'s'", "'s", "'"} {
				if strings.HasSuffix(word, suf) {
					return strings.TrimSuffix(word, suf)
				}
			}
		}
	}
	if lead == 0 && !meteorStemNeedsShield(word) {
		return english.Stem(word, true)
	}
	// Replace the runes the Go package would trim, lower-case or change
	// (and the kept leading apostrophes) with private use runes, which (like
	// the originals in Java) are plain non-vowels.
	rs := []rune(word)
	var orig []rune
	next := rune(0xF0000)
	for i, r := range rs {
		if meteorStemShield(r) || i < lead {
			for strings.ContainsRune(word, next) {
				next++
			}
			orig = append(orig, r)
			rs[i] = next
			next++
		}
	}
	out := []rune(english.Stem(string(rs), true))
	for i, r := range out {
		if k := r - 0xF0000; r >= 0xF0000 && int(k) < len(orig) && !strings.ContainsRune(word, r) {
			out[i] = orig[k]
		}
	}
	return string(out)
}

// meteorStemNeedsShield reports whether word holds a rune that
// english.Stem would change before stemming where Java does not (see
// meteorStemShield).
func meteorStemNeedsShield(word string) bool {
	for _, r := range word {
		if r < 0x80 {
			if ('A' <= r && r <= 'Z') || r == ' ' || ('\t' <= r && r <= '\r') {
				return true
			}
			continue
		}
		if meteorStemShield(r) {
			return true
		}
	}
	return false
}

// meteorStemShield reports whether the Go stemmer would change r before
// stemming (trim, lower-case, apostrophe normalization) where Java's does
// not.
func meteorStemShield(r rune) bool {
	return unicode.IsSpace(r) || unicode.ToLower(r) != r || r == '\u2018' || r == '\u2019' || r == '\u201B'
}

// meteorJavaHash is java.lang.String.hashCode: s[0]*31^(n-1) + ... over the
// UTF-16 code units, in int32 arithmetic. Meteor compares words and stems by
// this key ("chance of collision statistically insignificant"), so two
// different words with equal hashes match exactly in the reference too.
func meteorJavaHash(s string) int32 {
	var h int32
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x80 {
			h = 31*h + int32(c)
			continue
		}
		for _, r := range s[i:] {
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				h = 31*h + int32(r1)
				h = 31*h + int32(r2)
			} else {
				h = 31*h + int32(r)
			}
		}
		return h
	}
	return h
}
