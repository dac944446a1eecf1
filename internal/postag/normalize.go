package postag

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// normalize is NLTK 3.8's PerceptronTagger.normalize: a token containing a
// hyphen not at its start is "!HYPHEN", four digits are "!YEAR", a token
// starting with a digit is "!DIGITS", anything else is lower-cased. Digits
// and lower-casing follow Python's str.isdigit and str.lower.
//
// Lower-casing matters only through which characters end up ASCII and how
// many characters result, because every feature string of the model is
// ASCII and suffix features take the last three characters. Python and Go
// differ there only on U+0130 (İ), which Python lowers to "i" + U+0307;
// pyunicode.Lower does the same. Python's final-sigma rule (ς rather than σ)
// is not reproduced: both are one non-ASCII character, so no feature can
// tell them apart.
func normalize(word string) string {
	if strings.IndexByte(word, '-') > 0 {
		return "!HYPHEN"
	}
	if len(word) == 0 {
		return ""
	}
	first, _ := utf8.DecodeRuneInString(word)
	if !isDigit(first) {
		return pyunicode.Lower(word)
	}
	if runeCount(word) == 4 && allDigits(word) {
		return "!YEAR"
	}
	return "!DIGITS"
}

// runeCount counts characters as Python's len does; an invalid UTF-8 byte
// counts as one character (Python strings cannot hold one).
func runeCount(s string) int { return utf8.RuneCountInString(s) }

func allDigits(s string) bool {
	for _, r := range s {
		if !isDigit(r) {
			return false
		}
	}
	return true
}

// isDigit is Python's str.isdigit for one character: Unicode decimal digits
// (category Nd) and the characters whose Numeric_Type is Digit, such as
// superscripts and circled digits, which Go's unicode.IsDigit leaves out.
func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r) || unicode.Is(numericTypeDigit, r)
}

// numericTypeDigit holds the characters with Numeric_Type=Digit that are not
// in category Nd (Unicode 14, as in CPython 3.11's unicodedata).
var numericTypeDigit = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00b2, Hi: 0x00b3, Stride: 1},
		{Lo: 0x00b9, Hi: 0x00b9, Stride: 1},
		{Lo: 0x1369, Hi: 0x1371, Stride: 1},
		{Lo: 0x19da, Hi: 0x19da, Stride: 1},
		{Lo: 0x2070, Hi: 0x2070, Stride: 1},
		{Lo: 0x2074, Hi: 0x2079, Stride: 1},
		{Lo: 0x2080, Hi: 0x2089, Stride: 1},
		{Lo: 0x2460, Hi: 0x2468, Stride: 1},
		{Lo: 0x2474, Hi: 0x247c, Stride: 1},
		{Lo: 0x2488, Hi: 0x2490, Stride: 1},
		{Lo: 0x24ea, Hi: 0x24ea, Stride: 1},
		{Lo: 0x24f5, Hi: 0x24fd, Stride: 1},
		{Lo: 0x24ff, Hi: 0x24ff, Stride: 1},
		{Lo: 0x2776, Hi: 0x277e, Stride: 1},
		{Lo: 0x2780, Hi: 0x2788, Stride: 1},
		{Lo: 0x278a, Hi: 0x2792, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x10a40, Hi: 0x10a43, Stride: 1},
		{Lo: 0x10e60, Hi: 0x10e68, Stride: 1},
		{Lo: 0x11052, Hi: 0x1105a, Stride: 1},
		{Lo: 0x1f100, Hi: 0x1f10a, Stride: 1},
	},
}

// lastChars returns the last n characters of s (Python's s[-n:]).
func lastChars(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// firstChar returns the first character of s, or "" for "" (NLTK 3.8's
// `word[0] if word else ""`).
func firstChar(s string) string {
	if s == "" {
		return ""
	}
	_, size := utf8.DecodeRuneInString(s)
	return s[:size]
}
