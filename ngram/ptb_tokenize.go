package ngram

import (
	"strings"
	"unicode"
)

// ptbDropped lists the tokens the COCO toolkit's tokenizer.py removes after
// running Stanford's PTBTokenizer. The list is compared with the tokenizer's
// lower-cased output, so the upper-case bracket names never match: brackets
// survive as -lrb-, -rrb-, -lsb-, -rsb-, -lcb-, -rcb- (SPEC §7.1).
var ptbDropped = map[string]bool{
	"''": true, "'": true, "``": true, "`": true, "-LRB-": true, "-RRB-": true,
	"-LCB-": true, "-RCB-": true, ".": true, "?": true, "!": true, ",": true,
	":": true, "-": true, "--": true, "...": true, ";": true,
}

// PTBTokenize tokenizes one caption as the COCO caption toolkit does before
// scoring: newlines become spaces, Stanford PTBTokenizer 3.4.1 splits the text
// with -preserveLines -lowerCase, and the toolkit then drops punctuation
// tokens. The result is the kept tokens joined by single spaces.
//
// Matches the reference implementation, which keeps bracket tokens (as
// -lrb- etc.), runs such as "!!" and "??", and the symbols % # $ & / < >;
// splits clitics ("can't" → "ca n't", "gonna" → "gon na"); keeps the period
// of abbreviations ("u.s.", "mr.", "mass."); and keeps numbers, hyphenated
// words and URLs whole. This is a port of the lexer rules that caption and
// story text exercises, not of every rule of PTBLexer (SPEC §7.1).
func PTBTokenize(caption string) string {
	toks := ptbTokens(caption)
	kept := toks[:0]
	for _, t := range toks {
		// Only punctuation can be dropped, so skip the lookup for words.
		if t = strings.ToLower(t); isAlnum(rune(t[0])) || !ptbDropped[t] {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, " ")
}

// ptbTokens splits text into PTB tokens (not lower-cased, punctuation kept).
func ptbTokens(text string) []string {
	lx := ptbLexer{src: text, in: make([]rune, 0, len(text)), offs: make([]int, 0, len(text)+1)}
	for i, r := range text {
		lx.in = append(lx.in, r)
		lx.offs = append(lx.offs, i)
	}
	lx.offs = append(lx.offs, len(text))
	lx.hasAt = strings.IndexByte(text, '@') >= 0
	return lx.run()
}

// ptbLexer scans runes but emits tokens as substrings of the source, so
// tokenizing allocates little beyond the token list.
type ptbLexer struct {
	src   string
	in    []rune
	offs  []int // offs[i] is the byte offset of rune i in src; offs[len(in)] = len(src)
	hasAt bool  // whether src contains '@', so e-mail addresses are possible
	pos   int
	toks  []string
}

// text returns the source text of runes [a, b).
func (lx *ptbLexer) text(a, b int) string { return lx.src[lx.offs[a]:lx.offs[b]] }

func (lx *ptbLexer) at(i int) rune {
	if i < 0 || i >= len(lx.in) {
		return 0
	}
	return lx.in[i]
}

func (lx *ptbLexer) emit(t string) { lx.toks = append(lx.toks, t) }

// isPTBSpace reports characters the lexer treats as token separators: Unicode
// spaces (newlines included, which the toolkit has already replaced) and
// control characters, which PTBLexer deletes.
func isPTBSpace(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200b' || r == '\ufeff'
}

func isAlnum(r rune) bool {
	if r < 128 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' || r == '\u0092' }

func (lx *ptbLexer) run() []string {
	for lx.pos < len(lx.in) {
		r := lx.in[lx.pos]
		switch {
		case isPTBSpace(r):
			lx.pos++
		case r == '<':
			lx.lexAngle()
		case r == '&':
			lx.lexAmpersand()
		case lx.lexURL():
		case lx.lexEmail():
		case isAlnum(r):
			lx.lexWord()
		case (r == '-' || r == '+' || r == '\u2212') && unicode.IsDigit(lx.at(lx.pos+1)) && (lx.pos == 0 || isPTBSpace(lx.at(lx.pos-1))):
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
func (lx *ptbLexer) lexAngle() {
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
func (lx *ptbLexer) lexAmpersand() {
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
func (lx *ptbLexer) lexURL() bool {
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
	for end < len(lx.in) && !isPTBSpace(lx.in[end]) && !strings.ContainsRune("<>\"|`", lx.in[end]) {
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

func isEmailLocal(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._%+-", r))
}

// lexEmail reads name@host.domain whole.
func (lx *ptbLexer) lexEmail() bool {
	if !lx.hasAt {
		return false
	}
	i := lx.pos
	for i < len(lx.in) && isEmailLocal(lx.in[i]) {
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
