package tokenize

import (
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// basicTokenizer is HF's BasicTokenizer: clean the text, isolate CJK
// ideographs, split at white space, lower-case and strip accents, split off
// punctuation.
type basicTokenizer struct {
	lowerCase    bool
	stripAccents bool // HF strip_accents, resolved: None follows lowerCase
	chineseChars bool
	splitPunct   bool
}

// tokenize returns the words of text.
func (bt basicTokenizer) tokenize(text string) []string {
	text = bt.clean(text)
	var words []string
	for _, tok := range pyunicode.Fields(text) {
		if bt.lowerCase {
			tok = pyunicode.Lower(tok)
		}
		if bt.stripAccents {
			tok = stripMn(tok)
		}
		if !bt.splitPunct {
			words = append(words, tok)
			continue
		}
		words = appendPunctSplit(words, tok)
	}
	// HF joins with spaces and splits again, which drops the empty words
	// that accent stripping may leave.
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, pyunicode.Fields(w)...)
	}
	return out
}

// clean is HF's _clean_text followed by _tokenize_chinese_chars: drop NUL,
// U+FFFD and control characters, turn white space into ' ', put spaces
// around CJK ideographs.
func (bt basicTokenizer) clean(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == 0 || r == 0xFFFD || isPyControl(r):
		case isPyWhitespace(r):
			b.WriteByte(' ')
		case bt.chineseChars && isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// appendPunctSplit appends the parts of tok: each punctuation character on
// its own, the runs between them whole (HF _run_split_on_punc).
func appendPunctSplit(dst []string, tok string) []string {
	start := 0
	for i := 0; i < len(tok); {
		r, n := utf8.DecodeRuneInString(tok[i:])
		if isPyPunctuation(r) {
			if i > start {
				dst = append(dst, tok[start:i])
			}
			dst = append(dst, tok[i:i+n])
			start = i + n
		}
		i += n
	}
	if start < len(tok) {
		dst = append(dst, tok[start:])
	}
	return dst
}
