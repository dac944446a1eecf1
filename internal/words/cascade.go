package words

// pass is one substitution of NLTKWordTokenizer: it appends the rewritten
// src to dst. Passes see the output of the pass before, as re.sub calls in
// sequence do.
type pass func(dst, src []rune) []rune

// cascade lists the passes in the order NLTKWordTokenizer.tokenize applies
// them (NLTK 3.8, convert_parentheses=False).
var cascade = []pass{
	// STARTING_QUOTES
	padOpeningQuotes,
	convertInitialDoubleQuote,
	padDoubleBacktick,
	convertOpeningDoubleQuote,
	splitQuotedLetter,
	// PUNCTUATION
	splitFinalPeriodWithClosers,
	padColonComma,
	padFinalColonComma,
	padPeriodRuns,
	padSymbols,
	splitFinalPeriod,
	padQuestionExclamation,
	padClosingSingleQuote,
	padAsterisk,
	// PARENS_BRACKETS, DOUBLE_DASHES, then the extra spaces around the text
	padBrackets,
	padDoubleDash,
	surroundWithSpaces,
	// ENDING_QUOTES
	padClosingQuotes,
	convertDoubleSingleQuote,
	convertDoubleQuote,
	splitClitic,
	splitContraction,
	// CONTRACTIONS2 and CONTRACTIONS3
	splitCannot,
	splitDye,
	splitGimme,
	splitGonna,
	splitGotta,
	splitLemme,
	splitMoreN,
	splitWanna,
	splitTis,
	splitTwas,
}

// padRunes surrounds every code point for which pad is true with spaces,
// as re.sub(r"[...]", r" \g<0> ", text) does.
func padRunes(dst, src []rune, pad func(rune) bool) []rune {
	for _, r := range src {
		if pad(r) {
			dst = append(dst, ' ', r, ' ')
		} else {
			dst = append(dst, r)
		}
	}
	return dst
}

// padLiteral surrounds every non-overlapping occurrence of lit, scanning
// left to right, with spaces.
func padLiteral(dst, src []rune, lit string) []rune {
	return replaceLiteral(dst, src, lit, " "+lit+" ")
}

// replaceLiteral replaces every non-overlapping occurrence of the ASCII
// string lit, scanning left to right.
func replaceLiteral(dst, src []rune, lit, repl string) []rune {
	for i := 0; i < len(src); {
		if hasPrefix(src[i:], lit) {
			dst = appendASCII(dst, repl)
			i += len(lit)
			continue
		}
		dst = append(dst, src[i])
		i++
	}
	return dst
}

// hasPrefix reports whether s starts with the ASCII string p.
func hasPrefix(s []rune, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if s[i] != rune(p[i]) {
			return false
		}
	}
	return true
}

func appendASCII(dst []rune, s string) []rune {
	for i := 0; i < len(s); i++ {
		dst = append(dst, rune(s[i]))
	}
	return dst
}

// dollarAt reports whether Python's $ (without re.MULTILINE) matches at
// offset p: at the end, or just before a final newline.
func dollarAt(src []rune, p int) bool {
	return p == len(src) || (p == len(src)-1 && src[p] == '\n')
}

func surroundWithSpaces(dst, src []rune) []rune {
	dst = append(dst, ' ')
	dst = append(dst, src...)
	return append(dst, ' ')
}

func padBrackets(dst, src []rune) []rune {
	return padRunes(dst, src, func(r rune) bool {
		switch r {
		case '[', ']', '(', ')', '{', '}', '<', '>':
			return true
		}
		return false
	})
}

func padDoubleDash(dst, src []rune) []rune { return padLiteral(dst, src, "--") }
