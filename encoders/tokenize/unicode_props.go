package tokenize

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// isPyControl is HF's _is_control: Unicode category C* (unassigned code
// points included, as Python reports them "Cn") except tab, newline and
// carriage return.
func isPyControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	if r < 0x80 {
		return r < 0x20 || r == 0x7F
	}
	return unicode.Is(unicode.C, r) || !isAssigned(r)
}

// isAssigned reports whether r has a Unicode category other than Cn.
func isAssigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// isPyWhitespace is HF's _is_whitespace: space, tab, newline, carriage
// return and category Zs.
func isPyWhitespace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

// isPyPunctuation is HF's _is_punctuation: all non-alphanumeric ASCII
// characters, and category P* elsewhere.
func isPyPunctuation(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.Is(unicode.P, r)
}

// isCJK is HF's _is_chinese_char: the CJK Unified Ideographs blocks (not
// Japanese kana nor Hangul).
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}

// stripMn is HF's _run_strip_accents: NFD, then drop category Mn.
func stripMn(s string) string {
	if isASCII(s) {
		return s
	}
	d := norm.NFD.String(s)
	out := make([]rune, 0, len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			out = append(out, r)
		}
	}
	return string(out)
}

// dropCombining is NFKD followed by removing the characters whose canonical
// combining class is not zero (Python's unicodedata.combining), as ALBERT's
// preprocess_text does when keep_accents is false.
func dropCombining(s string) string {
	d := norm.NFKD.String(s)
	out := make([]byte, 0, len(d))
	for i := 0; i < len(d); {
		p := norm.NFKD.PropertiesString(d[i:])
		n := p.Size()
		if n == 0 {
			n = 1
		}
		if p.CCC() == 0 {
			out = append(out, d[i:i+n]...)
		}
		i += n
	}
	return string(out)
}

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
