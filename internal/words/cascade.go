package words

import "bytes"

// pass is one substitution of NLTKWordTokenizer: it appends the rewritten
// src to dst. Passes see the output of the pass before, as re.sub calls in
// sequence do.
type pass func(dst, src []rune) []rune

// step is a pass with the characters that can make it change anything:
// when none of them occurs in the text, the pass is the identity and is
// skipped (a speed-up only; see charSet).
type step struct {
	run pass
	// triggers are the ASCII characters the pass looks for; nonASCII
	// marks passes that look for non-ASCII quotes; always marks passes
	// that change every text.
	triggers string
	nonASCII bool
	always   bool
	// needsDots marks a pass that only acts on two consecutive periods,
	// which no pass creates.
	needsDots bool
	// literal, when set, is a string of at least 4 bytes that the text
	// must contain, compared under re.IGNORECASE (see foldASCII), for the
	// pass to change it.
	literal string
	// mask holds triggers as a set, filled in by withMasks.
	mask [2]uint64
}

// cascade lists the passes in the order NLTKWordTokenizer.tokenize applies
// them (NLTK 3.8, convert_parentheses=False). It is never modified after
// package initialisation.
var cascade = withMasks([]step{
	// STARTING_QUOTES
	{run: padOpeningQuotes, triggers: "`", nonASCII: true},
	{run: convertInitialDoubleQuote, triggers: `"`},
	{run: padDoubleBacktick, triggers: "`"},
	{run: convertOpeningDoubleQuote, triggers: `"'`},
	{run: splitQuotedLetter, triggers: "'"},
	// PUNCTUATION
	{run: splitFinalPeriodWithClosers, triggers: "."},
	{run: padColonComma, triggers: ":,"},
	{run: padFinalColonComma, triggers: ":,"},
	{run: padPeriodRuns, needsDots: true},
	{run: padSymbols, triggers: ";@#$%&"},
	{run: splitFinalPeriod, triggers: "."},
	{run: padQuestionExclamation, triggers: "?!"},
	{run: padClosingSingleQuote, triggers: "'"},
	{run: padAsterisk, triggers: "*"},
	// PARENS_BRACKETS, DOUBLE_DASHES, then the extra spaces around the text
	{run: padBrackets, triggers: "[](){}<>"},
	{run: padDoubleDash, triggers: "-"},
	{run: surroundWithSpaces, always: true},
	// ENDING_QUOTES
	{run: padClosingQuotes, nonASCII: true},
	{run: convertDoubleSingleQuote, triggers: "'"},
	{run: convertDoubleQuote, triggers: `"`},
	{run: splitClitic, triggers: "'"},
	{run: splitContraction, triggers: "'"},
	// CONTRACTIONS2 and CONTRACTIONS3. The earlier passes only insert
	// spaces and turn double quotes into quote pairs set off by spaces, so
	// they cannot create these letter sequences: a pass whose word is not
	// in the original sentence changes nothing.
	{run: splitCannot, literal: "cannot"},
	{run: splitDye, literal: "d'ye"},
	{run: splitGimme, literal: "gimme"},
	{run: splitGonna, literal: "gonna"},
	{run: splitGotta, literal: "gotta"},
	{run: splitLemme, literal: "lemme"},
	{run: splitMoreN, literal: "more'n"},
	{run: splitWanna, literal: "wanna"},
	{run: splitTis, literal: "'tis"},
	{run: splitTwas, literal: "'twas"},
})

// withMasks sets each step's trigger set from its trigger characters.
func withMasks(steps []step) []step {
	for i := range steps {
		for _, b := range []byte(steps[i].triggers) {
			steps[i].mask[b>>6] |= 1 << (b & 63)
		}
	}
	return steps
}

// charSet records which ASCII characters occur in a text, and whether any
// non-ASCII one does, with the text folded as re.IGNORECASE compares
// letters.
type charSet struct {
	ascii    [2]uint64
	nonASCII bool
	dots     bool // ".." occurs
	// folded is the sentence folded by foldASCII, computed on first use.
	folded   []byte
	isFolded bool
	sentence string
	// quads is a Bloom filter of the folded text's 4-byte windows, which
	// rules out most contraction literals without searching for them.
	quads [16]uint64
}

// quadBit maps a 4-byte window to one of the 1024 bits of charSet.quads.
func quadBit(w uint32) (word, bit uint32) {
	h := (w * 0x9e3779b1) >> 22
	return h >> 6, h & 63
}

func (c *charSet) add(r rune) {
	if r >= 0x80 {
		c.nonASCII = true
		return
	}
	c.ascii[r>>6] |= 1 << (r & 63)
}

func (c *charSet) has(b byte) bool { return c.ascii[b>>6]&(1<<(b&63)) != 0 }

// decode appends the code points of sentence to src and returns them with
// the characters they hold, plus those the passes can introduce: backticks
// from a double quote or two apostrophes, apostrophes from a double quote,
// and spaces. folded is reused for the folded text.
func decode(src []rune, sentence string, folded []byte) ([]rune, charSet) {
	c := charSet{folded: folded[:0]}
	var w uint32
	n := 0
	for _, r := range sentence {
		src = append(src, r)
		c.add(r)
		w = w<<8 | uint32(foldASCII(r))
		if n++; n >= 4 {
			word, bit := quadBit(w)
			c.quads[word] |= 1 << bit
		}
		c.dots = c.dots || w&0xffff == '.'<<8|'.'
	}
	c.sentence = sentence
	if c.has('"') || c.has('\'') {
		c.add('`')
	}
	if c.has('"') {
		c.add('\'')
	}
	c.add(' ')
	return src, c
}

// foldASCII maps r to the lower-case ASCII letter it matches under
// Python's re.IGNORECASE (see pyunicode.FoldEqual: the only non-ASCII
// matches of ASCII letters are İ and ı for i, ſ for s and the Kelvin sign
// for k), leaves other ASCII as is, and maps other code points to 0x80,
// which no pattern contains.
func foldASCII(r rune) byte {
	switch {
	case r >= 'A' && r <= 'Z':
		return byte(r) + 'a' - 'A'
	case r < 0x80:
		return byte(r)
	case r == '\u0130' || r == '\u0131':
		return 'i'
	case r == '\u017f':
		return 's'
	case r == '\u212a':
		return 'k'
	}
	return 0x80
}

// containsLiteral is bytes.Contains(b, []byte(lit)) without converting lit.
func containsLiteral(b []byte, lit string) bool {
	for i := 0; i+len(lit) <= len(b); i++ {
		j := bytes.IndexByte(b[i:len(b)-len(lit)+1], lit[0])
		if j < 0 {
			return false
		}
		i += j
		if string(b[i:i+len(lit)]) == lit {
			return true
		}
	}
	return false
}

// foldedText returns the original sentence folded by foldASCII (the
// literals cannot be created by earlier passes, see cascade).
func (c *charSet) foldedText() []byte {
	if !c.isFolded {
		for _, r := range c.sentence {
			c.folded = append(c.folded, foldASCII(r))
		}
		c.isFolded = true
	}
	return c.folded
}

// needs reports whether the step can change a text with the characters c.
func (s *step) needs(c *charSet) bool {
	if s.literal != "" {
		l := s.literal // at least 4 bytes
		word, bit := quadBit(uint32(l[0])<<24 | uint32(l[1])<<16 | uint32(l[2])<<8 | uint32(l[3]))
		return c.quads[word]&(1<<bit) != 0 && containsLiteral(c.foldedText(), l)
	}
	if s.needsDots {
		return c.dots
	}
	if s.always || (s.nonASCII && c.nonASCII) {
		return true
	}
	return s.mask[0]&c.ascii[0]|s.mask[1]&c.ascii[1] != 0
}

// padRunes surrounds every code point for which pad is true with spaces,
// as re.sub(r"[...]", r" \g<0> ", text) does.
func padRunes(dst, src []rune, pad func(rune) bool) []rune {
	last := 0
	for i, r := range src {
		if pad(r) {
			dst = append(dst, src[last:i]...)
			dst = append(dst, ' ', r, ' ')
			last = i + 1
		}
	}
	return append(dst, src[last:]...)
}

// padLiteral surrounds every non-overlapping occurrence of lit, scanning
// left to right, with spaces.
func padLiteral(dst, src []rune, lit string) []rune {
	return replaceLiteral(dst, src, lit, " "+lit+" ")
}

// replaceLiteral replaces every non-overlapping occurrence of the ASCII
// string lit, scanning left to right.
func replaceLiteral(dst, src []rune, lit, repl string) []rune {
	last := 0
	first := rune(lit[0])
	for i := 0; i < len(src); {
		if src[i] == first && hasPrefix(src[i:], lit) {
			dst = append(dst, src[last:i]...)
			dst = appendASCII(dst, repl)
			i += len(lit)
			last = i
			continue
		}
		i++
	}
	return append(dst, src[last:]...)
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
