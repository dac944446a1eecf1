package ngram

import (
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// Tokenize13a is SacreBLEU's default "13a" tokenizer (mteval-v13a): it
// drops "<skipped>", joins words broken by "-\n", turns newlines into
// spaces, unescapes &quot; &amp; &lt; &gt;, puts spaces around punctuation
// and symbols, around periods and commas not inside a number, and after a
// hyphen that follows a digit, then collapses whitespace.
//
// Matches the reference implementation (sacrebleu/tokenizers/
// tokenizer_13a.py and tokenizer_re.py), whose four regular expressions are
// applied one after another; each pass below reproduces one substitution
// with Python's left-to-right, non-overlapping matching.
func Tokenize13a(line string) string {
	var buf tokenizeBuffers
	return strings.Join(pyunicode.Fields(string(buf.tokenize13a(line))), " ")
}

// tokenizeBuffers are two byte buffers the 13a passes write into in turn,
// reused from line to line by one goroutine.
type tokenizeBuffers struct{ a, b []byte }

// tokenize13a runs the 13a passes on line and returns the result before
// whitespace is collapsed; it points into buf and is valid until the next
// call.
func (buf *tokenizeBuffers) tokenize13a(line string) []byte {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", `"`)
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	// The reference tokenizes " " + line + " ".
	buf.a = pad13aSymbols(buf.a[:0], " ")
	buf.a = pad13aSymbols(buf.a, line)
	buf.a = pad13aSymbols(buf.a, " ")
	buf.b = substitutePairs(buf.b[:0], buf.a, splitPunctAfterNonDigit)
	buf.a = substitutePairs(buf.a[:0], buf.b, splitPunctBeforeNonDigit)
	buf.b = substitutePairs(buf.b[:0], buf.a, splitHyphenAfterDigit)
	return buf.b
}

func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

// is13aSymbol is the class [\{-\~\[-\` -\&\(-\+\:-\@\/]: ASCII punctuation
// and symbols except ' , - . and the space itself counts too.
func is13aSymbol(b byte) bool {
	return b >= '{' && b <= '~' || b >= '[' && b <= '`' || b >= ' ' && b <= '&' ||
		b >= '(' && b <= '+' || b >= ':' && b <= '@' || b == '/'
}

// pad13aSymbols is the first substitution, appending s to out with each
// symbol c written as " c ".
func pad13aSymbols(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if b := s[i]; is13aSymbol(b) {
			out = append(out, ' ', b, ' ')
		} else {
			out = append(out, b)
		}
	}
	return out
}

// pairRule is one of the three 13a substitutions whose pattern is two
// one-character classes (X)(Y).
type pairRule uint8

const (
	splitPunctAfterNonDigit  pairRule = iota // ([^0-9])([\.,]) → "\1 \2 "
	splitPunctBeforeNonDigit                 // ([\.,])([^0-9]) → " \1 \2"
	splitHyphenAfterDigit                    // ([0-9])(-) → "\1 \2 "
)

// substitutePairs appends to out the result of applying rule to s, scanning
// left to right and resuming after each match as Python's re.sub does.
// Working on UTF-8 bytes gives the same result as on code points: the
// classes involved are ASCII, and a multi-byte character can only match a
// negated class with its last byte (X) or its first byte (Y), never
// straddle a match.
func substitutePairs(out, s []byte, rule pairRule) []byte {
	i := 0
	for i+1 < len(s) {
		a, b := s[i], s[i+1]
		switch {
		case rule == splitPunctAfterNonDigit && !isASCIIDigit(a) && (b == '.' || b == ','):
			out = append(out, a, ' ', b, ' ')
		case rule == splitPunctBeforeNonDigit && (a == '.' || a == ',') && !isASCIIDigit(b):
			out = append(out, ' ', a, ' ', b)
		case rule == splitHyphenAfterDigit && isASCIIDigit(a) && b == '-':
			out = append(out, a, ' ', b, ' ')
		default:
			out = append(out, a)
			i++
			continue
		}
		i += 2
	}
	return append(out, s[i:]...)
}
