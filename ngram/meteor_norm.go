package ngram

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file ports Meteor 1.5's edu.cmu.meteor.util.Normalizer.normalizeLine
// for English with punctuation kept (the jar's -norm), followed by Java's
// String.toLowerCase. Every regular expression of the reference matches a
// fixed three (or one) character window, so each is replayed as a left-to-right
// scan that resumes after a match, which is exactly java.util.regex's
// replaceAll on these patterns.

// meteorIsAlpha reports whether r is in the reference's "alpha" class:
// A-Za-z, Latin-1 and Latin Extended-A letters, and the Cyrillic ranges.
func meteorIsAlpha(r rune) bool {
	switch {
	case r < 0x80:
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	case r < 0x17F:
		return (0xC0 <= r && r <= 0xD6) || (0xD8 <= r && r <= 0xF6) || 0xF8 <= r
	}
	return (0x400 <= r && r <= 0x527) || (0xA640 <= r && r <= 0xA66E) ||
		(0xA67E <= r && r <= 0xA697) || (0x1D00 <= r && r <= 0x1D7F)
}

// meteorIsAlnum is the reference's "alnum" class: alpha plus ASCII digits.
func meteorIsAlnum(r rune) bool { return ('0' <= r && r <= '9') || meteorIsAlpha(r) }

// meteorIsDigit is java.util.regex's \p{Digit} (ASCII only).
func meteorIsDigit(r rune) bool { return '0' <= r && r <= '9' }

// meteorIsRegexSpace is java.util.regex's \s: [ \t\n\x0B\f\r].
func meteorIsRegexSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
}

// meteorIsWhite is the reference's r_white class: space, U+2000..U+200A,
// U+202F, U+205F, U+3000 and U+00A0.
func meteorIsWhite(r rune) bool {
	return r == ' ' || (0x2000 <= r && r <= 0x200A) || r == 0x202F || r == 0x205F ||
		r == 0x3000 || r == 0xA0
}

// meteorKeepsUnspaced reports the characters r_sep_other does not wrap in
// spaces: alnum, \s and . ' ` , - ‘ ’.
func meteorKeepsUnspaced(r rune) bool {
	switch r {
	case '.', '\'', '`', ',', '-', '\u2018', '\u2019':
		return true
	}
	return meteorIsAlnum(r) || meteorIsRegexSpace(r)
}

func meteorNotDigit(r rune) bool { return !meteorIsDigit(r) }
func meteorNotAlpha(r rune) bool { return !meteorIsAlpha(r) }
func meteorNotAlphaDigit(r rune) bool {
	return !meteorIsAlpha(r) && !meteorIsDigit(r)
}
func meteorIsAlnumOrDot(r rune) bool { return r == '.' || meteorIsAlnum(r) }
func meteorIsLowerS(r rune) bool     { return r == 's' }

// meteorReplace3 replays replaceAll of the pattern ([first])mid([third]) with
// "$1" + insert + "$2", appending the result to dst.
func meteorReplace3(dst, src []rune, first func(rune) bool, mid rune, third func(rune) bool, insert []rune) []rune {
	n := len(src)
	for i := 0; i < n; {
		if i+2 < n && src[i+1] == mid && first(src[i]) && third(src[i+2]) {
			dst = append(dst, src[i])
			dst = append(dst, insert...)
			dst = append(dst, src[i+2])
			i += 3
			continue
		}
		dst = append(dst, src[i])
		i++
	}
	return dst
}

var (
	meteorInsertComma    = []rune(" , ")
	meteorInsertSpace    = []rune(" ")
	meteorInsertQuote    = []rune(" ' ")
	meteorInsertQuoteCat = []rune(" '")
)

// meteorNormalizer holds scratch buffers; it is not safe for concurrent use.
type meteorNormalizer struct {
	prefixes map[string]int
	// noPunct is -noPunct: Normalizer.normalizeLine with keepPunctuation
	// false.
	noPunct bool
	a, b    []rune
	words   []string
	sb      strings.Builder
}

// normalize returns the jar's -norm form of line: Normalizer.normalizeLine
// (language en, punctuation kept) then String.toLowerCase.
func (nz *meteorNormalizer) normalize(line string) string {
	if !utf8.ValidString(line) {
		// Java decodes the jar's UTF-8 input with replacement characters.
		line = strings.ToValidUTF8(line, "\uFFFD")
	}
	a := nz.separate(line)

	// Escape multiple dots. Without the literal text DOTMULTI in the line,
	// the reference's escape loop turns each run of k >= 2 dots into the
	// token "DOT"*(k-1)+"DOTMULTI" with a space on either side, and its
	// unescape loop turns that token back into the k dots: the runs are
	// spaced here and kept opaque in the non-breaking-prefix pass below.
	if meteorContainsDotMulti(a) && meteorLiteralCost(a) <= meteorLiteralBudget {
		return nz.finish(meteorNormalizeLiteral(string(a), nz.prefixes))
	}
	b := nz.b[:0]
	for i := 0; i < len(a); {
		if a[i] == '.' && i+1 < len(a) && a[i+1] == '.' {
			j := i
			for j < len(a) && a[j] == '.' {
				j++
			}
			b = append(b, ' ')
			b = append(b, a[i:j]...)
			b = append(b, ' ')
			i = j
			continue
		}
		b = append(b, a[i])
		i++
	}
	res, spare := b, a
	if meteorHasPunctuationRules(b) {
		res, spare = nz.punctuation(b, a)
	}
	text := meteorFinishWhite(nz.rebuild(res))
	nz.a, nz.b = res[:0], spare[:0]
	return nz.finish(text)
}

// finish is the end of normalizeLine and the scorer's lower-casing: with
// noPunct every character outside the normalizer's alphanumeric ranges
// becomes a space (r_punct_strip) before white space is normalized again,
// and only then is the line lower-cased, as in the reference.
func (nz *meteorNormalizer) finish(text string) string {
	if nz.noPunct {
		text = meteorFinishWhite(strings.Map(func(r rune) rune {
			if meteorAlnum(r) {
				return r
			}
			return ' '
		}, text))
	}
	return meteorJavaLower(text)
}

// meteorAlnum reports whether r is in Normalizer.alnum:
// 0-9A-Za-zŠŽšžŸÀ-ÖØ-öø-ž plus Cyrillic Ѐ-ӿ Ԁ-ԧ Ꙁ-ꙮ ꙾-ꚗ and
// phonetic ᴀ-ᵿ.
func meteorAlnum(r rune) bool {
	switch {
	case r < 0x80:
		return '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z'
	case r == 'Š', r == 'Ž', r == 'š', r == 'ž', r == 'Ÿ':
		return true
	case 'À' <= r && r <= 'Ö', 'Ø' <= r && r <= 'ö', 'ø' <= r && r <= 'ž':
		return true
	case 'Ѐ' <= r && r <= 'ӿ', 'Ԁ' <= r && r <= 'ԧ', 'Ꙁ' <= r && r <= 'ꙮ', '꙾' <= r && r <= 'ꚗ', 'ᴀ' <= r && r <= 'ᵿ':
		return true
	}
	return false
}

// separate wraps line in spaces and separates all non-alphanumeric
// characters that aren't special cases (r_sep_other), into nz.a.
func (nz *meteorNormalizer) separate(line string) []rune {
	a := nz.a[:0]
	a = append(a, ' ')
	for _, r := range line {
		if meteorKeepsUnspaced(r) {
			a = append(a, r)
		} else {
			a = append(a, ' ', r, ' ')
		}
	}
	a = append(a, ' ')
	nz.a = a
	return a
}

// meteorHasPunctuationRules reports whether a holds a character that one of
// the comma, quote, dash or apostrophe rules looks for; without one, those
// rules leave the line unchanged.
func meteorHasPunctuationRules(a []rune) bool {
	for _, r := range a {
		switch r {
		case ',', '\'', '`', '-', '\u2018', '\u2019', '\u201C', '\u201D', '\u2013':
			return true
		}
	}
	return false
}

// punctuation applies the comma, quote, dash and apostrophe rules of
// normalizeLine to a (b is scratch) and returns the result and the buffer
// left spare.
func (nz *meteorNormalizer) punctuation(a, b []rune) (res, spare []rune) {
	// Separate commas except within numbers.
	b = meteorReplace3(b[:0], a, meteorNotDigit, ',', meteorNotDigit, meteorInsertComma)
	a = meteorReplace3(a[:0], b, meteorIsDigit, ',', meteorNotDigit, meteorInsertComma)
	b = meteorReplace3(b[:0], a, meteorNotDigit, ',', meteorIsDigit, meteorInsertComma)

	// Normalize quotes: ` ‘ ’ become ', then “ ” and '' become " with spaces.
	a = a[:0]
	for i := 0; i < len(b); i++ {
		switch r := b[i]; {
		case r == '`' || r == '\u2018' || r == '\u2019':
			b[i] = '\''
		}
	}
	for i := 0; i < len(b); i++ {
		r := b[i]
		if r == '\u201C' || r == '\u201D' {
			a = append(a, ' ', '"', ' ')
			continue
		}
		if r == '\'' && i+1 < len(b) && b[i+1] == '\'' {
			a = append(a, ' ', '"', ' ')
			i++
			continue
		}
		a = append(a, r)
	}

	// Normalize dashes: en dash to -, then each -- to - (one pass).
	b = b[:0]
	for i := 0; i < len(a); i++ {
		r := a[i]
		if r == '\u2013' {
			a[i] = '-'
		}
	}
	for i := 0; i < len(a); i++ {
		if a[i] == '-' && i+1 < len(a) && a[i+1] == '-' {
			b = append(b, '-')
			i++
			continue
		}
		b = append(b, a[i])
	}

	// Remove dashes between words (alnum-alnum or dot-alnum).
	a = meteorReplace3(a[:0], b, meteorIsAlnumOrDot, '-', meteorIsAlnum, meteorInsertSpace)

	// English splits contractions right.
	b = meteorReplace3(b[:0], a, meteorNotAlpha, '\'', meteorNotAlpha, meteorInsertQuote)
	a = meteorReplace3(a[:0], b, meteorNotAlphaDigit, '\'', meteorIsAlpha, meteorInsertQuote)
	b = meteorReplace3(b[:0], a, meteorIsAlpha, '\'', meteorNotAlpha, meteorInsertQuote)
	a = meteorReplace3(a[:0], b, meteorIsAlpha, '\'', meteorIsAlpha, meteorInsertQuoteCat)
	b = meteorReplace3(b[:0], a, meteorIsDigit, '\'', meteorIsLowerS, meteorInsertQuoteCat)
	return b, a
}

// rebuild splits a into words (StringTokenizer) and breaks final dots unless
// the word is a non-breaking prefix. All-dot words of two or more dots are
// escaped multi-dot runs and are left alone, as the reference's DOTMULTI
// tokens are.
func (nz *meteorNormalizer) rebuild(a []rune) string {
	words := meteorJavaTokens(string(a), nz.words[:0])
	sb := &nz.sb
	sb.Reset()
	for i, w := range words {
		if len(w) > 1 && w[len(w)-1] == '.' && !meteorAllDots(w) {
			pre := w[:len(w)-1]
			kind := nz.prefixes[pre]
			switch {
			case strings.Contains(pre, ".") && strings.IndexFunc(pre, meteorIsAlpha) >= 0:
				// Mixed (U.S.): drop the dots to match undotted output.
				sb.WriteString(strings.ReplaceAll(w, ".", ""))
			case kind == meteorNBPAny || (i < len(words)-1 && words[i+1][0] >= 'a' && words[i+1][0] <= 'z'):
				// Always non-breaking, or followed by lower case.
				sb.WriteString(w)
			case kind == meteorNBPNumericOnly && i < len(words)-1 && meteorIsDigit(rune(words[i+1][0])):
				sb.WriteString(w)
			default:
				sb.WriteString(pre)
				sb.WriteString(" .")
			}
		} else {
			sb.WriteString(w)
		}
		sb.WriteByte(' ')
	}
	nz.words = words[:0]
	return sb.String()
}

// meteorFinishWhite applies r_white and String.trim to s.
func meteorFinishWhite(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	inWhite := false
	for _, r := range s {
		if meteorIsWhite(r) {
			if !inWhite {
				sb.WriteByte(' ')
			}
			inWhite = true
			continue
		}
		inWhite = false
		sb.WriteRune(r)
	}
	return meteorJavaTrim(sb.String())
}

// meteorJavaTrim is String.trim: it strips characters <= U+0020 at both ends.
func meteorJavaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

func meteorAllDots(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] != '.' {
			return false
		}
	}
	return true
}

// meteorLiteralBudget bounds the work of the literal replay, whose escape
// loops (like the reference's) take time proportional to the line length
// times the longest dot run. Beyond it, a line containing the text DOTMULTI
// is normalized as if it did not; no real text gets near it.
const meteorLiteralBudget = 1 << 26

// meteorLiteralCost is the line length times its longest run of dots.
func meteorLiteralCost(a []rune) int {
	longest, run := 0, 0
	for _, r := range a {
		if r == '.' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return len(a) * (longest + 1)
}

func meteorContainsDotMulti(a []rune) bool {
	const pat = "DOTMULTI"
	for i := 0; i+len(pat) <= len(a); i++ {
		if a[i] == 'D' {
			k := 0
			for k < len(pat) && a[i+k] == rune(pat[k]) {
				k++
			}
			if k == len(pat) {
				return true
			}
		}
	}
	return false
}

// meteorNormalizeLiteral runs normalizeLine from the multi-dot escape onwards
// literally (string replacements and loops as in the reference). It is used
// when the input itself contains the escape text DOTMULTI, whose handling by
// the reference is part of the result.
func meteorNormalizeLiteral(s string, prefixes map[string]int) string {
	// r_multi_dot: \.([\.]+) -> " DOTMULTI$1"
	var sb strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '.' && i+1 < len(s) && s[i+1] == '.' {
			j := i + 1
			for j < len(s) && s[j] == '.' {
				j++
			}
			sb.WriteString(" DOTMULTI")
			sb.WriteString(s[i+1 : j])
			i = j
			continue
		}
		sb.WriteByte(s[i])
		i++
	}
	s = sb.String()
	for strings.Contains(s, "DOTMULTI.") {
		s = meteorMultiDot2(s)
		s = strings.ReplaceAll(s, "DOTMULTI.", "DOTDOTMULTI")
	}
	nz := &meteorNormalizer{prefixes: prefixes}
	a, _ := nz.punctuation([]rune(s), nil)
	s = nz.rebuild(a)
	for strings.Contains(s, "DOTDOTMULTI") {
		s = strings.ReplaceAll(s, "DOTDOTMULTI", "DOTMULTI.")
	}
	s = strings.ReplaceAll(s, "DOTMULTI", ".")
	return meteorFinishWhite(s)
}

// meteorMultiDot2 is replaceAll of DOTMULTI\.([^\.]) with "DOTDOTMULTI $1".
func meteorMultiDot2(s string) string {
	const pat = "DOTMULTI."
	var sb strings.Builder
	pos := 0
	from := 0
	for {
		k := strings.Index(s[from:], pat)
		if k < 0 {
			break
		}
		i := from + k
		j := i + len(pat)
		if j < len(s) && s[j] != '.' {
			_, size := utf8.DecodeRuneInString(s[j:])
			sb.WriteString(s[pos:i])
			sb.WriteString("DOTDOTMULTI ")
			sb.WriteString(s[j : j+size])
			pos = j + size
			from = pos
			continue
		}
		from = i + 1
	}
	sb.WriteString(s[pos:])
	return sb.String()
}

// meteorJavaLower is Java's String.toLowerCase in a non-Turkic locale: the
// simple lower-case mapping, except that U+0130 becomes "i̇" and a capital
// sigma ending a word becomes ς.
func meteorJavaLower(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	for i, r := range rs {
		switch r {
		case 0x130:
			sb.WriteString("i\u0307")
		case 0x3A3:
			if meteorFinalSigma(rs, i) {
				sb.WriteRune(0x3C2)
			} else {
				sb.WriteRune(0x3C3)
			}
		default:
			sb.WriteRune(unicode.ToLower(r))
		}
	}
	return sb.String()
}

// meteorFinalSigma is the Unicode Final_Sigma condition: a cased letter
// before (skipping case-ignorable characters) and none after.
func meteorFinalSigma(rs []rune, i int) bool {
	before := false
	for k := i - 1; k >= 0; k-- {
		if meteorCaseIgnorable(rs[k]) {
			continue
		}
		before = meteorCased(rs[k])
		break
	}
	if !before {
		return false
	}
	for k := i + 1; k < len(rs); k++ {
		if meteorCaseIgnorable(rs[k]) {
			continue
		}
		return !meteorCased(rs[k])
	}
	return true
}

func meteorCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func meteorCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
