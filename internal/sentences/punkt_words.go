package sentences

import (
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// This file ports PunktLanguageVars.word_tokenize, the regular expression
//
//	MultiChar | (?=WordStart)\S+?(?=\s|$|NonWord|MultiChar|,(?=$|\s|NonWord|MultiChar)) | \S
//
// applied with findall to each line, by hand: Go's regexp has neither
// look-ahead nor lazy matching with look-ahead, and its \s and \S are ASCII.

// isNonWord reports whether r is in punkt.py's _re_non_word_chars, the
// characters that cannot appear inside a word: )";}]*:@'({[ and the
// sentence-end marks other than the period.
func isNonWord(r rune) bool {
	switch r {
	case ')', '"', ';', '}', ']', '*', ':', '@', '\'', '(', '{', '[', '?', '!':
		return true
	}
	return false
}

// cannotStartWord reports whether r is excluded by _re_word_start, i.e. may
// not begin a multi-character word token.
func cannotStartWord(r rune) bool {
	switch r {
	case '(', '"', '`', '{', '[', ':', ';', '&', '#', '*', '@', ')', '}', ']', '-', ',':
		return true
	}
	return false
}

// multiCharLen returns the length in bytes of _re_multi_char_punct matched
// at s[i:] — a run of two or more hyphens, a run of two or more periods, or
// a spaced ellipsis ". . ." — or 0 when it does not match there.
func multiCharLen(s string, i int) int {
	if i+1 >= len(s) {
		return 0
	}
	c := s[i]
	if (c == '-' || c == '.') && s[i+1] == c {
		j := i + 2
		for j < len(s) && s[j] == c {
			j++
		}
		return j - i
	}
	if c != '.' {
		return 0
	}
	// (?:\.\s){2,}\. : count the period-space pairs, then let the greedy
	// repetition give back pairs until a period follows.
	var ends [3]int // end offsets of the last pairs seen, most recent last
	pairs := 0
	j := i
	for j < len(s) && s[j] == '.' {
		r, size := utf8.DecodeRuneInString(s[j+1:])
		if j+1 >= len(s) || !pyunicode.IsSpace(r) {
			break
		}
		j += 1 + size
		pairs++
		ends[0], ends[1], ends[2] = ends[1], ends[2], j
	}
	if pairs < 2 {
		return 0
	}
	if j < len(s) && s[j] == '.' {
		return j + 1 - i
	}
	// With one pair fewer the next character is the period that began the
	// last pair.
	if pairs >= 3 {
		return ends[1] + 1 - i
	}
	return 0
}

// wordEndsAt reports whether the look-ahead that ends a word token holds at
// s[p:]: whitespace, end of line, a non-word character, multi-character
// punctuation, or a comma that is itself followed by one of those.
func wordEndsAt(s string, p int) bool {
	if p >= len(s) {
		return true
	}
	r, size := utf8.DecodeRuneInString(s[p:])
	if pyunicode.IsSpace(r) || isNonWord(r) || multiCharLen(s, p) > 0 {
		return true
	}
	if r != ',' {
		return false
	}
	q := p + size
	if q >= len(s) {
		return true
	}
	r, _ = utf8.DecodeRuneInString(s[q:])
	return pyunicode.IsSpace(r) || isNonWord(r) || multiCharLen(s, q) > 0
}

// appendLineWords appends the Punkt word tokens of one line (a string
// without '\n') to dst.
func appendLineWords(dst []string, line string) []string {
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRuneInString(line[i:])
		if pyunicode.IsSpace(r) {
			i += size
			continue
		}
		if n := multiCharLen(line, i); n > 0 {
			dst = append(dst, line[i:i+n])
			i += n
			continue
		}
		j := i + size
		if !cannotStartWord(r) {
			for !wordEndsAt(line, j) {
				_, sz := utf8.DecodeRuneInString(line[j:])
				j += sz
			}
		}
		dst = append(dst, line[i:j])
		i = j
	}
	return dst
}

// punktWords splits text into Punkt word tokens line by line, skipping lines
// that are blank (PunktBaseClass._tokenize_words; the line and paragraph
// flags it also records only matter for training).
func punktWords(dst []string, text string) []string {
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		dst = appendLineWords(dst, line)
		text = rest
	}
	return dst
}
