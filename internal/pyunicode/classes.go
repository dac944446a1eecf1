package pyunicode

import "unicode"

// IsSpace reports whether r is whitespace for Python's str.isspace, str.split
// and the re class \s: Go's unicode.IsSpace plus the four information
// separators U+001C..U+001F, which CPython counts as whitespace.
func IsSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f)
	}
	return unicode.IsSpace(r)
}

// IsDecimal reports whether r matches Python's re class \d
// (str.isdecimal): the Unicode category Nd.
func IsDecimal(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9'
	}
	return unicode.Is(unicode.Nd, r)
}

// IsWord reports whether r matches Python's re class \w: a letter (L*), a
// character with a numeric value (N*) or the underscore. Combining marks are
// not word characters, as in CPython.
func IsWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r >= '0' && r <= '9') || (r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// IsUpper reports whether the one-character string r is upper case for
// Python's str.isupper: Lu or Other_Uppercase (e.g. Ⓐ, Ⅻ).
func IsUpper(r rune) bool {
	if r < 0x80 {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

// IsLower reports whether the one-character string r is lower case for
// Python's str.islower: Ll or Other_Lowercase (e.g. ª, ᵃ).
func IsLower(r rune) bool {
	if r < 0x80 {
		return r >= 'a' && r <= 'z'
	}
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}
