package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clipWords splits cleaned text as CLIP's pattern does with Python's regex
// module (findall, IGNORECASE):
//
//	<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+
//
// written by hand because RE2 has no equivalent of the leftmost-alternative
// semantics this depends on. Characters no alternative matches (white
// space) are skipped.
func clipWords(text string, dst []string) []string {
	for i := 0; i < len(text); {
		if n := clipMatch(text[i:]); n > 0 {
			dst = append(dst, text[i:i+n])
			i += n
			continue
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	return dst
}

// clipContractions are the contraction alternatives, in pattern order.
var clipContractions = []string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"}

// clipMatch returns the length of the pattern's match at the start of s, 0
// when none.
func clipMatch(s string) int {
	if s[0] == '<' {
		for _, sp := range []string{"<|startoftext|>", "<|endoftext|>"} {
			if len(s) >= len(sp) && strings.EqualFold(s[:len(sp)], sp) {
				return len(sp)
			}
		}
	}
	if s[0] == '\'' {
		for _, c := range clipContractions {
			if n := foldPrefix(s, c); n > 0 {
				return n
			}
		}
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsLetter(r):
		for n < len(s) {
			r, m := utf8.DecodeRuneInString(s[n:])
			if !unicode.IsLetter(r) {
				break
			}
			n += m
		}
		return n
	case unicode.IsNumber(r):
		return n
	case unicode.IsSpace(r):
		return 0
	}
	for n < len(s) {
		r, m := utf8.DecodeRuneInString(s[n:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSpace(r) {
			break
		}
		n += m
	}
	return n
}

// foldPrefix returns the byte length of the prefix of s that equals lit
// under simple case folding (IGNORECASE), 0 when there is none.
func foldPrefix(s, lit string) int {
	n := 0
	for _, want := range lit {
		if n >= len(s) {
			return 0
		}
		r, m := utf8.DecodeRuneInString(s[n:])
		if !strings.EqualFold(string(r), string(want)) {
			return 0
		}
		n += m
	}
	return n
}
