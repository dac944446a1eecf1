package words

import "github.com/storyeval/storyeval/internal/pyunicode"

// splitFinalPeriodWithClosers is
// ([^\.])(\.)([\]\)}>"\'»”’ ]*)\s*$ -> "\1 \2 \3 ": the period that ends
// the sentence, possibly followed by closing quotes, brackets and spaces, is
// split off.
func splitFinalPeriodWithClosers(dst, src []rune) []rune {
	return splitLastPeriod(dst, src, true)
}

// splitFinalPeriod is ([^\.])(\.)([\]\)}>"\']*)\s*$ -> "\1 \2\3 ", NLTK's
// second final-period rule.
func splitFinalPeriod(dst, src []rune) []rune {
	return splitLastPeriod(dst, src, false)
}

// splitLastPeriod implements both final-period rules. Only the last period
// of the text can match, because everything after the matched period must
// be closers or whitespace; it must follow a character other than a period.
// With wide set, the closers include » ” ’ and the space, and a space also
// separates the period from them in the replacement.
func splitLastPeriod(dst, src []rune, wide bool) []rune {
	k := len(src) - 1
	for k >= 0 && src[k] != '.' {
		k--
	}
	if k < 1 || src[k-1] == '.' {
		return append(dst, src...)
	}
	g := k + 1
	for g < len(src) && isCloser(src[g], wide) {
		g++
	}
	for _, r := range src[g:] {
		if !pyunicode.IsSpace(r) {
			return append(dst, src...)
		}
	}
	dst = append(dst, src[:k]...)
	dst = append(dst, ' ', '.')
	if wide {
		dst = append(dst, ' ')
	}
	dst = append(dst, src[k+1:g]...)
	return append(dst, ' ')
}

func isCloser(r rune, wide bool) bool {
	switch r {
	case ']', ')', '}', '>', '"', '\'':
		return true
	case '»', '”', '’', ' ':
		return wide
	}
	return false
}

// padColonComma is ([:,])([^\d])  -> " \1 \2": a colon or comma not
// followed by a digit is split off (so "3,36" stays whole).
func padColonComma(dst, src []rune) []rune {
	last := 0
	for i := 0; i+1 < len(src); i++ {
		if r := src[i]; (r == ':' || r == ',') && !pyunicode.IsDecimal(src[i+1]) {
			dst = append(dst, src[last:i]...)
			dst = append(dst, ' ', r, ' ', src[i+1])
			i++
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// padFinalColonComma is ([:,])$ -> " \1 ".
func padFinalColonComma(dst, src []rune) []rune {
	// $ matches only at the end or before a final newline, so only the
	// last two code points can match.
	for i := max(0, len(src)-2); i < len(src); i++ {
		if r := src[i]; (r == ':' || r == ',') && dollarAt(src, i+1) {
			dst = append(dst, src[:i]...)
			dst = append(dst, ' ', r, ' ')
			return append(dst, src[i+1:]...)
		}
	}
	return append(dst, src...)
}

// padPeriodRuns is \.{2,} -> " \g<0> ": ellipses become tokens.
func padPeriodRuns(dst, src []rune) []rune {
	last := 0
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '.' || src[i+1] != '.' {
			continue
		}
		j := i + 2
		for j < len(src) && src[j] == '.' {
			j++
		}
		dst = append(dst, src[last:i]...)
		dst = append(dst, ' ')
		dst = append(dst, src[i:j]...)
		dst = append(dst, ' ')
		i = j - 1
		last = j
	}
	return append(dst, src[last:]...)
}

// padSymbols is [;@#$%&] -> " \g<0> ".
func padSymbols(dst, src []rune) []rune {
	return padRunes(dst, src, func(r rune) bool {
		switch r {
		case ';', '@', '#', '$', '%', '&':
			return true
		}
		return false
	})
}

// padQuestionExclamation is [?!] -> " \g<0> ".
func padQuestionExclamation(dst, src []rune) []rune {
	return padRunes(dst, src, func(r rune) bool { return r == '?' || r == '!' })
}

// padClosingSingleQuote is ([^'])' -> "\1 ' ".
func padClosingSingleQuote(dst, src []rune) []rune {
	last := 0
	for i := 0; i+2 < len(src); i++ {
		if src[i+1] == '\'' && src[i+2] == ' ' && src[i] != '\'' {
			dst = append(dst, src[last:i+1]...)
			dst = append(dst, ' ', '\'', ' ')
			i += 2
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// padAsterisk is [*] -> " \g<0> ".
func padAsterisk(dst, src []rune) []rune {
	return padRunes(dst, src, func(r rune) bool { return r == '*' })
}
