// Package errtext quotes user data for error messages, keeping at most
// MaxBytes bytes of it, so that a 50 MB line of a file is not echoed whole
// (and raw) into a one-line error.
package errtext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBytes is the most bytes of user data an error quotes.
const MaxBytes = 200

// Quote returns s quoted as %q does; an s longer than MaxBytes is cut at a
// character boundary and followed by "… (N bytes)".
func Quote(s string) string {
	if len(s) <= MaxBytes {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut(s, MaxBytes)) + fmt.Sprintf("… (%d bytes)", len(s))
}

// QuoteList quotes items, comma-separated, with at most MaxBytes bytes of
// them in all; items left out are counted ("… and 3 more of 40").
func QuoteList(items []string) string {
	var b strings.Builder
	used := 0
	for i, it := range items {
		if used+len(it) > MaxBytes {
			if i == 0 && len(items) == 1 {
				return Quote(it)
			}
			if i == 0 {
				return Quote(it) + fmt.Sprintf(" … and %d more of %d", len(items)-1, len(items))
			}
			fmt.Fprintf(&b, " … and %d more of %d", len(items)-i, len(items))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(it))
		used += len(it)
	}
	return b.String()
}

// cut returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func cut(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
