package ngram

// ptbFraction returns the expansion of a vulgar-fraction character, which
// PTBLexer normalises (normalizeFractions, part of ptb3Escaping): "½" becomes
// "1/2"; or "" for any other character.
func ptbFraction(r rune) string {
	switch r {
	case '¼':
		return "1/4"
	case '½':
		return "1/2"
	case '¾':
		return "3/4"
	case '⅓':
		return "1/3"
	case '⅔':
		return "2/3"
	case '⅕':
		return "1/5"
	case '⅖':
		return "2/5"
	case '⅗':
		return "3/5"
	case '⅘':
		return "4/5"
	case '⅙':
		return "1/6"
	case '⅚':
		return "5/6"
	case '⅛':
		return "1/8"
	case '⅜':
		return "3/8"
	case '⅝':
		return "5/8"
	case '⅞':
		return "7/8"
	}
	return ""
}

// ptbBracket returns PTB's escape of a bracket (normalizeParentheses and
// normalizeOtherBrackets), already lower-cased ("(" is -LRB-, kept as
// -lrb-), or "" for any other character.
func ptbBracket(r rune) string {
	switch r {
	case '(':
		return "-lrb-"
	case ')':
		return "-rrb-"
	case '[':
		return "-lsb-"
	case ']':
		return "-rsb-"
	case '{':
		return "-lcb-"
	case '}':
		return "-rcb-"
	}
	return ""
}

// countByte returns how many bytes equal to a or b start s[i:].
func countByte(s string, i int, a, b byte) int {
	j := i
	for j < len(s) && (s[j] == a || s[j] == b) {
		j++
	}
	return j - i
}

func isSingleQuote(r rune) bool { return r == '`' || r == '\'' || r == '\u2018' || r == '\u2019' }

// lexPunct reads one punctuation or symbol token: r, of width w bytes.
// Tokens the toolkit drops are only skipped.
func (t *ptbTokenizer) lexPunct(r rune, w int) {
	s := t.src
	if b := ptbBracket(r); b != "" {
		t.keep(b)
		t.pos += w
		return
	}
	if f := ptbFraction(r); f != "" {
		t.keep(f)
		t.pos += w
		return
	}
	switch r {
	case '.':
		// Three or more periods are an ellipsis (ptb3Ellipsis: "..."); a
		// shorter run is one period token each. All are dropped.
		if n := countByte(s, t.pos, '.', '.'); n >= 3 {
			t.pos += n
			return
		}
		t.pos++
	case '\u2026', '\u0085':
		// "...", dropped.
		t.pos += w
	case '!', '?':
		// Runs such as "!!!" or "?!" are one token; a single one is dropped.
		n := countByte(s, t.pos, '!', '?')
		if n > 1 {
			t.keep(s[t.pos : t.pos+n])
		}
		t.pos += n
	case '-':
		// ptb3Dashes: runs of two to four hyphens become "--"; it and "-"
		// are dropped.
		n := countByte(s, t.pos, '-', '-')
		if n > 4 {
			t.keep(s[t.pos : t.pos+n])
		}
		t.pos += n
	case '\u2012', '\u2013', '\u2014', '\u2015':
		// "--", dropped.
		t.pos += w
	case '"', '\u201c', '\u201d', '\u201e', '\u201f', '\u00ab', '\u00bb':
		// Double quotes become `` or '' (latexQuotes); the toolkit drops both.
		t.pos += w
	case '`', '\'', '\u2018', '\u2019', '\u201a', '\u201b', '\u0091', '\u0092':
		// Runs of two single quotes or backquotes are a double quote ('');
		// otherwise a single quote ('). Both are dropped.
		if next, nw := t.runeAt(t.pos + w); isSingleQuote(r) && isSingleQuote(next) {
			t.pos += w + nw
			return
		}
		t.pos += w
	default:
		t.emit(s[t.pos : t.pos+w])
		t.pos += w
	}
}
