package tokenize

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyUnescapeHTML is Python's html.unescape: one left-to-right pass over
// &name, &name; and &#n references. Named references are resolved by Go's
// html package (the same HTML5 table and longest-prefix rule); numeric ones
// follow Python, which differs from Go by dropping the code points HTML
// forbids (U+0001–U+0008, U+000B, U+000E–U+001F, U+007F, U+FDD0–U+FDEF and
// the U+xFFFE/U+xFFFF noncharacters) instead of keeping them.
func pyUnescapeHTML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		n := charRefLen(s)
		if n == 0 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		ref := s[:n]
		s = s[n:]
		if ref[1] == '#' {
			b.WriteString(numericCharRef(ref))
		} else {
			b.WriteString(html.UnescapeString(ref))
		}
	}
}

// charRefLen returns the length of Python's charref match at the start of
// s ("&" then #digits;? | #[xX]hex;? | up to 32 characters other than
// tab, LF, FF, space, <, &, #, ; followed by an optional ;), 0 if none.
func charRefLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	n := 1
	if s[1] == '#' {
		n = 2
		hex := false
		if n < len(s) && (s[n] == 'x' || s[n] == 'X') {
			hex = true
			n++
		}
		start := n
		for n < len(s) && (isDigitByte(s[n]) || (hex && isHexLetter(s[n]))) {
			n++
		}
		if n == start {
			return 0
		}
	} else {
		for chars := 0; n < len(s) && chars < 32; chars++ {
			r, w := utf8.DecodeRuneInString(s[n:])
			if strings.ContainsRune("\t\n\f <&#;", r) {
				break
			}
			n += w
		}
		if n == 1 {
			return 0
		}
	}
	if n < len(s) && s[n] == ';' {
		n++
	}
	return n
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isHexLetter(c byte) bool { return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }

// numericCharRef resolves "&#…" as Python's html.unescape.
func numericCharRef(ref string) string {
	digits := strings.TrimSuffix(ref[2:], ";")
	base := 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	num, err := strconv.ParseUint(digits, base, 64)
	if err != nil || num > 0x10FFFF { // overflow is also beyond U+10FFFF
		return "\uFFFD"
	}
	r := rune(num)
	switch {
	case r == 0:
		return "\uFFFD"
	case r >= 0x80 && r <= 0x9F:
		return string(cp1252High[r-0x80])
	case r >= 0xD800 && r <= 0xDFFF:
		return "\uFFFD"
	case (r >= 0x01 && r <= 0x08) || r == 0x0B || (r >= 0x0E && r <= 0x1F) || r == 0x7F,
		r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return ""
	}
	return string(r)
}
