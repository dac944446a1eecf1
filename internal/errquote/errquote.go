// Package errquote quotes user data for error messages: Go-quoted, so
// control bytes and invalid UTF-8 cannot garble a terminal, and cut to
// MaxBytes, so that a 50 MB field is not echoed whole.
package errquote

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxBytes is the most bytes of s that Quote keeps.
const MaxBytes = 200

// Quote returns s as a Go string literal; when s is longer than MaxBytes
// it keeps the first MaxBytes bytes (cut back to a rune boundary) and says
// how many bytes it left out.
func Quote(s string) string {
	if len(s) <= MaxBytes {
		return strconv.Quote(s)
	}
	cut := MaxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d more bytes)", s[:cut], len(s)-cut)
}
