package ngram

import "unicode"

// isPySpace reports whether Python's str.split() with no argument splits at
// r: Unicode White_Space plus the separators \x1c–\x1f, which Python counts
// as whitespace and Go's unicode.IsSpace does not.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyFields splits s as Python's s.split() does: on runs of whitespace, with
// no empty fields.
func pyFields(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if isPySpace(r) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
