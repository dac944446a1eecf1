package pyunicode

import (
	"unicode"
	"unicode/utf8"
)

// asciiSpace marks the ASCII characters Python's str.isspace accepts:
// \t \n \v \f \r, space, and the information separators \x1c–\x1f (which Go's
// unicode.IsSpace does not count).
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}

// Fields splits s as Python's s.split() with no argument does: at runs of
// white space (IsSpace), with no empty fields. The fields are substrings of s.
func Fields(s string) []string { return AppendFields(nil, s) }

// AppendFields appends the fields of s (see Fields) to dst and returns it,
// so that a caller can reuse one slice across many strings.
func AppendFields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		var space bool
		size := 1
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
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
