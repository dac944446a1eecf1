package words

import "github.com/storyeval/storyeval/internal/pyunicode"

// The MacIntyre contractions (CONTRACTIONS2 and CONTRACTIONS3 in
// destructive.py): case-insensitive, each replaced by " \1 \2 ".

func splitCannot(dst, src []rune) []rune { return splitWordPair(dst, src, "can", "not", false) }
func splitDye(dst, src []rune) []rune    { return splitWordPair(dst, src, "d", "'ye", false) }
func splitGimme(dst, src []rune) []rune  { return splitWordPair(dst, src, "gim", "me", false) }
func splitGonna(dst, src []rune) []rune  { return splitWordPair(dst, src, "gon", "na", false) }
func splitGotta(dst, src []rune) []rune  { return splitWordPair(dst, src, "got", "ta", false) }
func splitLemme(dst, src []rune) []rune  { return splitWordPair(dst, src, "lem", "me", false) }
func splitMoreN(dst, src []rune) []rune  { return splitWordPair(dst, src, "more", "'n", false) }

// splitWanna is (?i)\b(wan)(na)(?=\s): the only contraction that must be
// followed by whitespace rather than a word boundary.
func splitWanna(dst, src []rune) []rune { return splitWordPair(dst, src, "wan", "na", true) }

// splitWordPair is (?i)\b(first)(second)\b, or (?i)\b(first)(second)(?=\s)
// when spaceAfter is set.
func splitWordPair(dst, src []rune, first, second string, spaceAfter bool) []rune {
	n := len(first) + len(second)
	last := 0
	for i := 0; i+n <= len(src); i++ {
		if !foldPrefix(src[i:], first) || !boundaryAt(src, i) || !foldPrefix(src[i+len(first):], second) {
			continue
		}
		end := i + n
		ok := boundaryAt(src, end)
		if spaceAfter {
			ok = end < len(src) && pyunicode.IsSpace(src[end])
		}
		if !ok {
			continue
		}
		dst = append(dst, src[last:i]...)
		dst = append(dst, ' ')
		dst = append(dst, src[i:i+len(first)]...)
		dst = append(dst, ' ')
		dst = append(dst, src[i+len(first):end]...)
		dst = append(dst, ' ')
		i = end - 1
		last = end
	}
	return append(dst, src[last:]...)
}

func splitTis(dst, src []rune) []rune  { return splitQuotedT(dst, src, "is") }
func splitTwas(dst, src []rune) []rune { return splitQuotedT(dst, src, "was") }

// splitQuotedT is (?i) ('t)(rest)\b -> " \1 \2 " ('tis, 'twas).
func splitQuotedT(dst, src []rune, rest string) []rune {
	last := 0
	for i := 0; i < len(src); i++ {
		if src[i] != ' ' || !foldPrefix(src[i+1:], "'t") || !foldPrefix(src[i+3:], rest) ||
			!boundaryAt(src, i+3+len(rest)) {
			continue
		}
		end := i + 3 + len(rest)
		dst = append(dst, src[last:i+1]...)
		dst = append(dst, src[i+1], src[i+2], ' ')
		dst = append(dst, src[i+3:end]...)
		dst = append(dst, ' ')
		i = end - 1
		last = end
	}
	return append(dst, src[last:]...)
}
