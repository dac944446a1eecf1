package pyunicode

import (
	"strings"
	"unicode"
)

// capitalIDot is U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE, the one code
// point whose unconditional full lower-case mapping has two code points.
const capitalIDot = '\u0130'

// Lower returns s lower-cased as Python's str.lower does. It differs from
// strings.ToLower in that U+0130 (İ) becomes "i\u0307", Unicode's full
// mapping, rather than a plain "i". The context-dependent final sigma is
// not distinguished (Σ always becomes σ); no caller here compares Greek text.
func Lower(s string) string {
	if !strings.ContainsRune(s, capitalIDot) {
		return strings.ToLower(s) // returns s itself when nothing changes
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	for _, r := range s {
		if r == capitalIDot {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// FoldEqual reports whether r matches the ASCII lower-case letter p in a
// Python regular expression compiled with re.IGNORECASE: CPython compares
// simple lower-case mappings (so İ matches i and K, the Kelvin sign, matches
// k) and adds the equivalences ı~i and ſ~s.
func FoldEqual(r rune, p byte) bool {
	if r == rune(p) {
		return true
	}
	if r < 0x80 {
		return r >= 'A' && r <= 'Z' && r+('a'-'A') == rune(p)
	}
	switch {
	case p == 'i' && r == '\u0131':
		return true
	case p == 's' && r == '\u017f':
		return true
	}
	return unicode.ToLower(r) == rune(p)
}
