package ngram

import "strings"

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
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", `"`)
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	s := []byte(" " + line + " ")
	s = pad13aSymbols(s)
	// ([^0-9])([\.,]) → "\1 \2 "
	s = substitutePairs(s, func(a, b byte) bool { return !isASCIIDigit(a) && (b == '.' || b == ',') },
		func(out []byte, a, b byte) []byte { return append(out, a, ' ', b, ' ') })
	// ([\.,])([^0-9]) → " \1 \2"
	s = substitutePairs(s, func(a, b byte) bool { return (a == '.' || a == ',') && !isASCIIDigit(b) },
		func(out []byte, a, b byte) []byte { return append(out, ' ', a, ' ', b) })
	// ([0-9])(-) → "\1 \2 "
	s = substitutePairs(s, func(a, b byte) bool { return isASCIIDigit(a) && b == '-' },
		func(out []byte, a, b byte) []byte { return append(out, a, ' ', b, ' ') })
	return strings.Join(pyFields(string(s)), " ")
}

func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

// is13aSymbol is the class [\{-\~\[-\` -\&\(-\+\:-\@\/]: ASCII punctuation
// and symbols except ' , - . and the space itself counts too.
func is13aSymbol(b byte) bool {
	return b >= '{' && b <= '~' || b >= '[' && b <= '`' || b >= ' ' && b <= '&' ||
		b >= '(' && b <= '+' || b >= ':' && b <= '@' || b == '/'
}

// pad13aSymbols is the first substitution: each symbol c becomes " c ".
func pad13aSymbols(s []byte) []byte {
	out := make([]byte, 0, len(s)+len(s)/2)
	for _, b := range s {
		if is13aSymbol(b) {
			out = append(out, ' ', b, ' ')
		} else {
			out = append(out, b)
		}
	}
	return out
}

// substitutePairs applies a substitution whose pattern is two one-character
// classes (X)(Y), scanning left to right and resuming after each match as
// Python's re.sub does; replace appends the replacement of a match. Working
// on UTF-8 bytes gives the same result as on code points: the classes
// involved are ASCII, and a multi-byte character can only match a negated
// class with its last byte (X) or its first byte (Y), never straddle a match.
func substitutePairs(s []byte, match func(a, b byte) bool, replace func(out []byte, a, b byte) []byte) []byte {
	out := make([]byte, 0, len(s)+len(s)/4)
	i := 0
	for i < len(s) {
		if i+1 < len(s) && match(s[i], s[i+1]) {
			out = replace(out, s[i], s[i+1])
			i += 2
			continue
		}
		out = append(out, s[i])
		i++
	}
	return out
}
