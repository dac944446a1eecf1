package pyunicode

import (
	"strings"
	"unicode"
)

// capitalIDot is U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE, the one code
// point whose unconditional full lower-case mapping has two code points.
const capitalIDot = '\u0130'

// Lower returns s lower-cased as Python's str.lower does on a whole string:
// Unicode's full mapping (U+0130 İ becomes "i\u0307", where strings.ToLower
// gives a plain "i") and the Final_Sigma rule (Σ becomes ς at the end of a
// word).
func Lower(s string) string {
	if !strings.ContainsRune(s, 'Σ') {
		return LowerChars(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch {
		case r == capitalIDot:
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(rs, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// LowerChars lower-cases s one character at a time: Python's full mapping
// (U+0130 becomes "i\u0307") but never the context-dependent final sigma.
// Matches HF's tokenize(), which lower-cases a do_lower_case tokenizer's
// text with re.sub over single characters.
func LowerChars(s string) string {
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

// finalSigma is Unicode's Final_Sigma condition: a cased letter before i and
// none after it, skipping case-ignorable characters.
func finalSigma(rs []rune, i int) bool {
	before := false
	for j := i - 1; j >= 0; j-- {
		if caseIgnorable(rs[j]) {
			continue
		}
		before = cased(rs[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(rs); j++ {
		if caseIgnorable(rs[j]) {
			continue
		}
		return !cased(rs[j])
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x2018, 0x2019, 0x2024, 0x2027:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
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
