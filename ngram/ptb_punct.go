package ngram

// ptbFractions are the vulgar-fraction characters PTBLexer normalises
// (normalizeFractions, part of ptb3Escaping): "½" becomes "1/2".
var ptbFractions = map[rune]string{
	'¼': "1/4", '½': "1/2", '¾': "3/4", '⅓': "1/3", '⅔': "2/3", '⅕': "1/5",
	'⅖': "2/5", '⅗': "3/5", '⅘': "4/5", '⅙': "1/6", '⅚': "5/6", '⅛': "1/8",
	'⅜': "3/8", '⅝': "5/8", '⅞': "7/8",
}

// ptbBrackets are PTB's bracket escapes (normalizeParentheses and
// normalizeOtherBrackets).
var ptbBrackets = map[rune]string{
	'(': "-LRB-", ')': "-RRB-", '[': "-LSB-", ']': "-RSB-", '{': "-LCB-", '}': "-RCB-",
}

// lexPunct reads one punctuation or symbol token.
func (lx *ptbLexer) lexPunct() {
	r := lx.in[lx.pos]
	run := func(pred func(rune) bool) int {
		j := lx.pos
		for j < len(lx.in) && pred(lx.in[j]) {
			j++
		}
		return j - lx.pos
	}
	if b, ok := ptbBrackets[r]; ok {
		lx.emit(b)
		lx.pos++
		return
	}
	if f, ok := ptbFractions[r]; ok {
		lx.emit(f)
		lx.pos++
		return
	}
	switch r {
	case '.':
		// Three or more periods are an ellipsis (ptb3Ellipsis: "..."); a
		// shorter run is one period token each.
		if n := run(func(c rune) bool { return c == '.' }); n >= 3 {
			lx.emit("...")
			lx.pos += n
			return
		}
		lx.emit(".")
		lx.pos++
	case '\u2026', '\u0085':
		lx.emit("...")
		lx.pos++
	case '!', '?':
		// Runs such as "!!!" or "?!" are one token.
		n := run(func(c rune) bool { return c == '!' || c == '?' })
		lx.emit(lx.text(lx.pos, lx.pos+n))
		lx.pos += n
	case '-':
		// ptb3Dashes: runs of two to four hyphens become "--".
		n := run(func(c rune) bool { return c == '-' })
		switch {
		case n == 1:
			lx.emit("-")
		case n <= 4:
			lx.emit("--")
		default:
			lx.emit(lx.text(lx.pos, lx.pos+n))
		}
		lx.pos += n
	case '\u2012', '\u2013', '\u2014', '\u2015':
		lx.emit("--")
		lx.pos++
	case '"', '\u201c', '\u201d', '\u201e', '\u201f', '\u00ab', '\u00bb':
		// Double quotes become `` or '' (latexQuotes); the toolkit drops both.
		lx.emit("''")
		lx.pos++
	case '`', '\'', '\u2018', '\u2019', '\u201a', '\u201b', '\u0091', '\u0092':
		// Runs of two single quotes or backquotes are a double quote.
		n := run(func(c rune) bool { return c == '`' || c == '\'' || c == '\u2018' || c == '\u2019' })
		if n >= 2 {
			lx.emit("''")
			lx.pos += 2
			return
		}
		lx.emit("'")
		lx.pos++
	default:
		lx.emit(lx.text(lx.pos, lx.pos+1))
		lx.pos++
	}
}
