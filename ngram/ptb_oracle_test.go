package ngram

// A verbatim copy of the rune-based PTB tokenizer that ptbTokenizer replaced,
// kept as the oracle that FuzzPTBAgainstOracle and the captions benchmark
// compare against: every identifier carries an oracle prefix; the abbreviation
// sets (ptbAbbreviations, ptbAbbreviationsAnyCase) are shared.

import (
	"strings"
	"unicode"
)

// oraclePtbDropped lists the tokens the COCO toolkit's tokenizer.py removes after
// running Stanford's PTBTokenizer. The list is compared with the tokenizer's
// lower-cased output, so the upper-case bracket names never match: brackets
// survive as -lrb-, -rrb-, -lsb-, -rsb-, -lcb-, -rcb- (pycocoevalcap ptbtokenizer.py).
var oraclePtbDropped = map[string]bool{
	"''": true, "'": true, "``": true, "`": true, "-LRB-": true, "-RRB-": true,
	"-LCB-": true, "-RCB-": true, ".": true, "?": true, "!": true, ",": true,
	":": true, "-": true, "--": true, "...": true, ";": true,
}

// oraclePTBTokenize tokenizes one caption as the COCO caption toolkit does before
// scoring: newlines become spaces, Stanford PTBTokenizer 3.4.1 splits the text
// with -preserveLines -lowerCase, and the toolkit then drops punctuation
// tokens. The result is the kept tokens joined by single spaces.
//
// Matches the reference implementation, which keeps bracket tokens (as
// -lrb- etc.), runs such as "!!" and "??", and the symbols % # $ & / < >;
// splits clitics ("can't" → "ca n't", "gonna" → "gon na"); keeps the period
// of abbreviations ("u.s.", "mr.", "mass."); and keeps numbers, hyphenated
// words and URLs whole. This is a port of the lexer rules that caption and
// story text exercises, not of every rule of Stanford's PTBLexer.flex.
func oraclePTBTokenize(caption string) string {
	toks := oraclePtbTokens(caption)
	kept := toks[:0]
	for _, t := range toks {
		// Only punctuation can be dropped, so skip the lookup for words.
		if t = strings.ToLower(t); oracleIsAlnum(rune(t[0])) || !oraclePtbDropped[t] {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, " ")
}

// oraclePtbTokens splits text into PTB tokens (not lower-cased, punctuation kept).
func oraclePtbTokens(text string) []string {
	lx := oraclePtbLexer{src: text, in: make([]rune, 0, len(text)), offs: make([]int, 0, len(text)+1)}
	for i, r := range text {
		lx.in = append(lx.in, r)
		lx.offs = append(lx.offs, i)
	}
	lx.offs = append(lx.offs, len(text))
	lx.hasAt = strings.IndexByte(text, '@') >= 0
	return lx.run()
}

// oraclePtbLexer scans runes but emits tokens as substrings of the source, so
// tokenizing allocates little beyond the token list.
type oraclePtbLexer struct {
	src   string
	in    []rune
	offs  []int // offs[i] is the byte offset of rune i in src; offs[len(in)] = len(src)
	hasAt bool  // whether src contains '@', so e-mail addresses are possible
	pos   int
	toks  []string
}

// text returns the source text of runes [a, b).
func (lx *oraclePtbLexer) text(a, b int) string { return lx.src[lx.offs[a]:lx.offs[b]] }

func (lx *oraclePtbLexer) at(i int) rune {
	if i < 0 || i >= len(lx.in) {
		return 0
	}
	return lx.in[i]
}

func (lx *oraclePtbLexer) emit(t string) { lx.toks = append(lx.toks, t) }

// oracleIsPTBSpace reports characters the lexer treats as token separators: Unicode
// spaces (newlines included, which the toolkit has already replaced) and
// control characters, which PTBLexer deletes.
func oracleIsPTBSpace(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200b' || r == '\ufeff'
}

func oracleIsAlnum(r rune) bool {
	if r < 128 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

func oracleIsApostrophe(r rune) bool { return r == '\'' || r == '\u2019' || r == '\u0092' }

func (lx *oraclePtbLexer) run() []string {
	for lx.pos < len(lx.in) {
		r := lx.in[lx.pos]
		switch {
		case oracleIsPTBSpace(r):
			lx.pos++
		case r == '<':
			lx.lexAngle()
		case r == '&':
			lx.lexAmpersand()
		case lx.lexURL():
		case lx.lexEmail():
		case oracleIsAlnum(r):
			lx.lexWord()
		case (r == '-' || r == '+' || r == '\u2212') && unicode.IsDigit(lx.at(lx.pos+1)) && (lx.pos == 0 || oracleIsPTBSpace(lx.at(lx.pos-1))):
			// NUMBER allows a leading sign when the number starts a token.
			lx.pos++
			start := len(lx.toks)
			lx.lexWord()
			if len(lx.toks) > start {
				lx.toks[start] = string(r) + lx.toks[start]
			}
		default:
			lx.lexPunct()
		}
	}
	return lx.toks
}

// lexAngle reads an SGML/HTML tag such as <b> or </b> as one token, or a bare "<".
func (lx *oraclePtbLexer) lexAngle() {
	i := lx.pos + 1
	if lx.at(i) == '/' {
		i++
	}
	if c := lx.at(i); c < 128 && (unicode.IsLetter(c) || c == '!' || c == '?') {
		for j := i; j < len(lx.in); j++ {
			if lx.in[j] == '>' {
				lx.emit(lx.text(lx.pos, j+1))
				lx.pos = j + 1
				return
			}
			if lx.in[j] == '\n' || lx.in[j] == '<' {
				break
			}
		}
	}
	lx.emit("<")
	lx.pos++
}

// lexAmpersand reads an HTML entity as one token (&amp; normalised to &, as
// ptb3Escaping does) or a bare "&".
func (lx *oraclePtbLexer) lexAmpersand() {
	j := lx.pos + 1
	if lx.at(j) == '#' {
		j++
	}
	k := j
	for k < len(lx.in) && k-j < 10 && (unicode.IsLetter(lx.in[k]) || unicode.IsDigit(lx.in[k])) && lx.in[k] < 128 {
		k++
	}
	if k > j && lx.at(k) == ';' {
		ent := lx.text(lx.pos, k+1)
		if strings.EqualFold(ent, "&amp;") {
			ent = "&"
		}
		lx.emit(ent)
		lx.pos = k + 1
		return
	}
	lx.emit("&")
	lx.pos++
}

// lexURL reads http://, https://, ftp:// and www. addresses whole, leaving
// trailing sentence punctuation for the next token.
func (lx *oraclePtbLexer) lexURL() bool {
	switch lx.in[lx.pos] {
	case 'h', 'H', 'f', 'F', 'w', 'W':
	default:
		return false
	}
	rest := lx.src[lx.offs[lx.pos]:]
	hasPrefix := func(p string) bool {
		return len(rest) >= len(p) && strings.EqualFold(rest[:len(p)], p)
	}
	if !(hasPrefix("http://") || hasPrefix("https://") || hasPrefix("ftp://") || hasPrefix("www.")) {
		return false
	}
	end := lx.pos
	for end < len(lx.in) && !oracleIsPTBSpace(lx.in[end]) && !strings.ContainsRune("<>\"|`", lx.in[end]) {
		end++
	}
	for end > lx.pos && strings.ContainsRune(".,;:!?)]}'\u2019\u201d", lx.in[end-1]) {
		end--
	}
	if end-lx.pos <= len("www.") {
		return false
	}
	lx.emit(lx.text(lx.pos, end))
	lx.pos = end
	return true
}

func oracleIsEmailLocal(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._%+-", r))
}

// lexEmail reads name@host.domain whole.
func (lx *oraclePtbLexer) lexEmail() bool {
	if !lx.hasAt {
		return false
	}
	i := lx.pos
	for i < len(lx.in) && oracleIsEmailLocal(lx.in[i]) {
		i++
	}
	if i == lx.pos || lx.at(i) != '@' {
		return false
	}
	j := i + 1
	k := j
	for k < len(lx.in) && lx.in[k] < 128 && (unicode.IsLetter(lx.in[k]) || unicode.IsDigit(lx.in[k]) || lx.in[k] == '.' || lx.in[k] == '-') {
		k++
	}
	for k > j && !(unicode.IsLetter(lx.in[k-1]) || unicode.IsDigit(lx.in[k-1])) {
		k--
	}
	if k-j < 3 || !strings.ContainsRune(lx.text(j, k), '.') {
		return false
	}
	lx.emit(lx.text(lx.pos, k))
	lx.pos = k
	return true
}

// oraclePtbClitics are the endings PTBLexer splits off a word after an apostrophe
// (REDAUX); "n't" is handled separately because the split falls before the n.
var oraclePtbClitics = []string{"s", "re", "ve", "ll", "d", "m"}

// oraclePtbAssimilations are whole words PTBLexer splits in two (ASSIMILATIONS2/3).
var oraclePtbAssimilations = map[string]int{
	"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "lemme": 3, "gimme": 3,
}

// lexWord reads a word or number starting at an alphanumeric character:
// letters and digits joined by hyphens, underscores, inner periods ("u.s",
// "3.50"), digit-group commas and colons ("1,000", "5:30"), slashes ("a/b")
// and inner apostrophes ("o'clock"); then splits clitics, assimilations and
// the final period the way PTBLexer does.
func (lx *oraclePtbLexer) lexWord() {
	start := lx.pos
	i := start
	clitic := ""
scan:
	for i < len(lx.in) {
		r := lx.in[i]
		next := lx.at(i + 1)
		switch {
		case oracleIsAlnum(r):
			i++
		case r == '-' || r == '_':
			if !oracleIsAlnum(next) {
				break scan
			}
			i++
		case r == '.':
			if !oracleIsAlnum(next) {
				break scan
			}
			i++
		case r == ',' || r == ':':
			if !(unicode.IsDigit(lx.at(i-1)) && unicode.IsDigit(next)) {
				break scan
			}
			i++
		case r == '/':
			if !oracleIsAlnum(next) {
				break scan
			}
			i++
		case r == '&':
			if !(unicode.IsUpper(lx.at(i-1)) && unicode.IsUpper(next)) {
				break scan
			}
			i++
		case oracleIsApostrophe(r):
			if c := lx.cliticAt(i); c != "" {
				clitic = c
				break scan
			}
			if (next == 't' || next == 'T') && (lx.at(i-1) == 'n' || lx.at(i-1) == 'N') && !oracleIsAlnum(lx.at(i+2)) && i-1 > start {
				clitic = "n't"
				break scan
			}
			if !unicode.IsLetter(next) {
				break scan
			}
			i++
		default:
			break scan
		}
	}
	word := lx.text(start, i)
	lx.pos = i
	switch {
	case clitic == "n't":
		lx.emit(word[:len(word)-1])
		lx.emit(lx.text(i-1, i) + "'" + lx.text(i+1, i+2))
		lx.pos = i + 2
		return
	case clitic != "":
		lx.emit(word)
		lx.emit("'" + lx.text(i+1, i+1+len(clitic)))
		lx.pos = i + 1 + len(clitic)
		return
	}
	if len(word) != 5 && len(word) != 6 {
		// Not an assimilation; skip the lower-casing and lookup.
	} else if n, ok := oraclePtbAssimilations[strings.ToLower(word)]; ok {
		lx.emit(word[:n])
		lx.emit(word[n:])
		return
	}
	if lx.at(i) == '.' && oraclePtbKeepsPeriod(word) {
		lx.emit(word + ".")
		lx.pos = i + 1
		return
	}
	lx.emit(word)
}

// cliticAt returns the clitic ("s", "re", ...) that follows the apostrophe
// at position i when it ends the word, or "".
func (lx *oraclePtbLexer) cliticAt(i int) string {
	for _, c := range oraclePtbClitics {
		j := i + 1
		ok := true
		for _, cr := range c {
			if unicode.ToLower(lx.at(j)) != cr {
				ok = false
				break
			}
			j++
		}
		if ok && !oracleIsAlnum(lx.at(j)) && i > 0 && oracleIsAlnum(lx.at(i-1)) {
			return c
		}
	}
	return ""
}

// oraclePtbKeepsPeriod reports whether a word followed by a period is an
// abbreviation whose period PTBLexer keeps: acronyms and initials ("U.S",
// "p.m", "C") and the listed abbreviations ("Mr", "St", "Mass", "etc").
func oraclePtbKeepsPeriod(word string) bool {
	if oracleIsAcronym(word) {
		return true
	}
	return ptbAbbreviations[word] || ptbAbbreviationsAnyCase[strings.ToLower(word)]
}

// oracleIsAcronym matches [A-Za-z](\.[A-Za-z])*: "C", "U.S", "p.m", "e.g".
func oracleIsAcronym(w string) bool {
	if len(w)%2 == 0 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if i%2 == 0 {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
		} else if c != '.' {
			return false
		}
	}
	return true
}

// oraclePtbFractions are the vulgar-fraction characters PTBLexer normalises
// (normalizeFractions, part of ptb3Escaping): "½" becomes "1/2".
var oraclePtbFractions = map[rune]string{
	'¼': "1/4", '½': "1/2", '¾': "3/4", '⅓': "1/3", '⅔': "2/3", '⅕': "1/5",
	'⅖': "2/5", '⅗': "3/5", '⅘': "4/5", '⅙': "1/6", '⅚': "5/6", '⅛': "1/8",
	'⅜': "3/8", '⅝': "5/8", '⅞': "7/8",
}

// oraclePtbBrackets are PTB's bracket escapes (normalizeParentheses and
// normalizeOtherBrackets).
var oraclePtbBrackets = map[rune]string{
	'(': "-LRB-", ')': "-RRB-", '[': "-LSB-", ']': "-RSB-", '{': "-LCB-", '}': "-RCB-",
}

// lexPunct reads one punctuation or symbol token.
func (lx *oraclePtbLexer) lexPunct() {
	r := lx.in[lx.pos]
	run := func(pred func(rune) bool) int {
		j := lx.pos
		for j < len(lx.in) && pred(lx.in[j]) {
			j++
		}
		return j - lx.pos
	}
	if b, ok := oraclePtbBrackets[r]; ok {
		lx.emit(b)
		lx.pos++
		return
	}
	if f, ok := oraclePtbFractions[r]; ok {
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
