package words

import "github.com/storyeval/storyeval/internal/pyunicode"

// The passes below copy unchanged stretches of src in one append each:
// last is the start of the stretch not yet copied.

// padOpeningQuotes is ([«“‘„]|[`]+) -> " \1 ": typographic opening quotes
// one by one, runs of backticks as a whole.
func padOpeningQuotes(dst, src []rune) []rune {
	last := 0
	for i := 0; i < len(src); {
		switch src[i] {
		case '«', '“', '‘', '„':
			dst = append(dst, src[last:i]...)
			dst = append(dst, ' ', src[i], ' ')
			i++
			last = i
		case '`':
			j := i
			for j < len(src) && src[j] == '`' {
				j++
			}
			dst = append(dst, src[last:i]...)
			dst = append(dst, ' ')
			dst = append(dst, src[i:j]...)
			dst = append(dst, ' ')
			i = j
			last = i
		default:
			i++
		}
	}
	return append(dst, src[last:]...)
}

// convertInitialDoubleQuote is ^\" -> two backticks: a double quote at
// the very start opens a quotation.
func convertInitialDoubleQuote(dst, src []rune) []rune {
	if len(src) > 0 && src[0] == '"' {
		dst = append(dst, '`', '`')
		return append(dst, src[1:]...)
	}
	return append(dst, src...)
}

// padDoubleBacktick surrounds each pair of backticks with spaces.
func padDoubleBacktick(dst, src []rune) []rune { return padLiteral(dst, src, "``") }

// convertOpeningDoubleQuote is ([ \(\[{<])(\"|\'{2}) -> "\1 " + two
// backticks: a double quote (or two single quotes) after a space or an
// opening bracket opens a quotation.
func convertOpeningDoubleQuote(dst, src []rune) []rune {
	last := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '(', '[', '{', '<':
		default:
			continue
		}
		n := 0
		if i+1 < len(src) && src[i+1] == '"' {
			n = 2
		} else if hasPrefix(src[i+1:], "''") {
			n = 3
		}
		if n > 0 {
			dst = append(dst, src[last:i+1]...)
			dst = append(dst, ' ', '`', '`', ' ')
			i += n - 1
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// splitQuotedLetter is (?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b -> "\1 \2": a
// single quote before a one-letter word is split off unless the letter
// starts a clitic.
func splitQuotedLetter(dst, src []rune) []rune {
	last := 0
	for i := 0; i < len(src); i++ {
		if src[i] == '\'' && i+1 < len(src) && pyunicode.IsWord(src[i+1]) &&
			!wordAt(src, i+2) && !startsClitic(src[i+1:]) {
			dst = append(dst, src[last:i+1]...)
			dst = append(dst, ' ', src[i+1])
			i++
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// startsClitic is the negative look-ahead (?!re|ve|ll|m|t|s|d|n) under
// re.IGNORECASE.
func startsClitic(s []rune) bool {
	for _, c := range [...]string{"re", "ve", "ll", "m", "t", "s", "d", "n"} {
		if foldPrefix(s, c) {
			return true
		}
	}
	return false
}

// foldPrefix reports whether s starts with the lower-case ASCII string p
// under Python's re.IGNORECASE.
func foldPrefix(s []rune, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if !pyunicode.FoldEqual(s[i], p[i]) {
			return false
		}
	}
	return true
}

// wordAt reports whether src[p] exists and is a \w character.
func wordAt(src []rune, p int) bool {
	return p >= 0 && p < len(src) && pyunicode.IsWord(src[p])
}

// boundaryAt is Python's \b at offset p.
func boundaryAt(src []rune, p int) bool {
	return wordAt(src, p-1) != wordAt(src, p)
}

// padClosingQuotes is ([»”’]) -> " \1 ".
func padClosingQuotes(dst, src []rune) []rune {
	return padRunes(dst, src, func(r rune) bool { return r == '»' || r == '”' || r == '’' })
}

// convertDoubleSingleQuote surrounds each pair of apostrophes with spaces.
func convertDoubleSingleQuote(dst, src []rune) []rune { return padLiteral(dst, src, "''") }

// convertDoubleQuote turns every remaining double quote into two
// apostrophes, a closing quote.
func convertDoubleQuote(dst, src []rune) []rune {
	return replaceLiteral(dst, src, `"`, " '' ")
}

// splitClitic is ([^' ])('[sS]|'[mM]|'[dD]|') -> "\1 \2 ": 's, 'm, 'd or a
// lone closing quote before a space is split from the word before it.
func splitClitic(dst, src []rune) []rune {
	last := 0
	for i := 0; i+2 < len(src); i++ {
		if src[i+1] != '\'' || src[i] == '\'' || src[i] == ' ' {
			continue
		}
		switch c := src[i+2]; {
		case (c == 's' || c == 'S' || c == 'm' || c == 'M' || c == 'd' || c == 'D') &&
			i+3 < len(src) && src[i+3] == ' ':
			dst = append(dst, src[last:i+1]...)
			dst = append(dst, ' ', '\'', c, ' ')
			i += 3
			last = i + 1
		case c == ' ':
			dst = append(dst, src[last:i+1]...)
			dst = append(dst, ' ', '\'', ' ')
			i += 2
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// splitContraction is ([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) -> "\1 \2 "
// (case-sensitive, before a space).
func splitContraction(dst, src []rune) []rune {
	last := 0
	for i := 0; i+4 < len(src); i++ {
		if src[i+4] != ' ' || src[i] == '\'' || src[i] == ' ' || !isContraction(src[i+1:i+4]) {
			continue
		}
		dst = append(dst, src[last:i+1]...)
		dst = append(dst, ' ', src[i+1], src[i+2], src[i+3], ' ')
		i += 4
		last = i + 1
	}
	return append(dst, src[last:]...)
}

func isContraction(c []rune) bool {
	for _, s := range [...]string{"'ll", "'LL", "'re", "'RE", "'ve", "'VE", "n't", "N'T"} {
		if hasPrefix(c, s) {
			return true
		}
	}
	return false
}
