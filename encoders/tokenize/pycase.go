package tokenize

import (
	"strings"
	"unicode"
)

// isPySpace reports whether Python's str.isspace is true for r: Unicode
// White_Space plus the information separators U+001C–U+001F.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyFields splits s at runs of Python white space, as Python's str.split().
func pyFields(s string) []string {
	return strings.FieldsFunc(s, isPySpace)
}

// pyLowerChars lower-cases s one character at a time. Matches the reference
// implementation: HF's tokenize() lower-cases a do_lower_case tokenizer's
// text with re.sub over single characters, so Python's full lower-case
// mapping applies (U+0130 becomes "i\u0307") but never the context-dependent
// final sigma.
func pyLowerChars(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// pyLower lower-cases s as Python's str.lower on a whole string: the full
// mapping of pyLowerChars plus the Final_Sigma rule (Σ becomes ς at the end
// of a word).
func pyLower(s string) string {
	if !strings.ContainsRune(s, 'Σ') {
		return pyLowerChars(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(rs, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
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
