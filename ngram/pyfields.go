package ngram

import (
	"unicode"
	"unicode/utf8"
)

// isPySpace reports whether Python's str.split() with no argument splits at
// r: Unicode White_Space plus the separators \x1c–\x1f, which Python counts
// as whitespace and Go's unicode.IsSpace does not.
func isPySpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiPySpace[r]
	}
	return unicode.IsSpace(r)
}

// asciiPySpace marks the ASCII characters str.split() splits at.
var asciiPySpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// pyFields splits s as Python's s.split() does: on runs of whitespace, with
// no empty fields. The fields are substrings of s.
func pyFields(s string) []string { return appendPyFields(nil, s) }

// appendPyFields appends the fields of s (see pyFields) to dst.
func appendPyFields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		var space bool
		size := 1
		if c < utf8.RuneSelf {
			space = asciiPySpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}
