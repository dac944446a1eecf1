package ngram

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// ptbDropped lists the tokens the COCO toolkit's tokenizer.py removes after
// running Stanford's PTBTokenizer. The list is compared with the tokenizer's
// lower-cased output, so the upper-case bracket names never match: brackets
// survive as -lrb-, -rrb-, -lsb-, -rsb-, -lcb-, -rcb- (pycocoevalcap tokenizer/ptbtokenizer.py, PUNCTUATIONS). The
// tokenizer itself tests membership with isPTBDropped, which must agree.
var ptbDropped = map[string]bool{
	"''": true, "'": true, "``": true, "`": true, "-LRB-": true, "-RRB-": true,
	"-LCB-": true, "-RCB-": true, ".": true, "?": true, "!": true, ",": true,
	":": true, "-": true, "--": true, "...": true, ";": true,
}

// isPTBDropped reports whether tok is in ptbDropped once lower-cased. Every
// member is ASCII punctuation, which lower-casing leaves alone, and no other
// character lower-cases to ASCII punctuation, so tok is tested as it is.
func isPTBDropped(tok string) bool {
	switch len(tok) {
	case 1:
		switch tok[0] {
		case '\'', '`', '.', '?', '!', ',', ':', '-', ';':
			return true
		}
	case 2:
		return tok == "''" || tok == "``" || tok == "--"
	case 3:
		return tok == "..."
	}
	return false
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
// story text exercises, not of every rule of Stanford CoreNLP 3.4.1's PTBLexer.flex. Invalid
// UTF-8 bytes come out as U+FFFD. PTBTokenize is safe for concurrent use.
func PTBTokenize(caption string) string {
	t := ptbTokenizerPool.Get().(*ptbTokenizer)
	t.out = t.appendTokenized(t.out[:0], caption)
	s := string(t.out)
	ptbTokenizerPool.Put(t)
	return s
}

// ptbTokenizerPool lends PTBTokenize a tokenizer whose buffers have grown.
var ptbTokenizerPool = sync.Pool{New: func() any { return new(ptbTokenizer) }}

// ptbTokenizer is the PTB lexer of PTBTokenize. It scans the caption's bytes
// (decoding UTF-8 only at bytes >= 0x80) and appends each kept token,
// lower-cased, straight to the output, so a call allocates nothing once its
// buffers have grown. A ptbTokenizer is not safe for concurrent use: give
// each goroutine its own. The zero value is ready to use.
type ptbTokenizer struct {
	src   string // the caption being tokenized
	pos   int    // byte offset of the next character to scan
	hasAt bool   // whether src contains '@', so e-mail addresses are possible
	dst   []byte // output being appended to
	wrote bool   // whether a token has been appended for this caption
	lower []byte // scratch: a lower-cased word for the set lookups
	out   []byte // PTBTokenize's output buffer
}

// appendTokenized appends PTBTokenize(caption) to dst and returns the
// extended slice.
func (t *ptbTokenizer) appendTokenized(dst []byte, caption string) []byte {
	t.src, t.pos, t.dst, t.wrote = caption, 0, dst, false
	t.hasAt = strings.IndexByte(caption, '@') >= 0
	t.run()
	dst = t.dst
	t.src, t.dst = "", nil
	return dst
}

// Character classes of ASCII bytes (ptbASCII); bytes >= 0x80 have none and
// are decoded as UTF-8.
const (
	ptbClassSpace    = 1 << iota // isPTBSpace
	ptbClassAlnum                // isAlnum
	ptbClassEmail                // isEmailLocal
	ptbClassURLStop              // ends a URL: a space or one of <>"|`
	ptbClassURLStart             // may start a URL: one of hHfFwW
)

var ptbASCII = func() (tab [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		r := rune(c)
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			tab[c] |= ptbClassSpace | ptbClassURLStop
		}
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			tab[c] |= ptbClassAlnum | ptbClassEmail
		}
		if strings.ContainsRune("._%+-", r) {
			tab[c] |= ptbClassEmail
		}
		if strings.ContainsRune("<>\"|`", r) {
			tab[c] |= ptbClassURLStop
		}
		if strings.ContainsRune("hHfFwW", r) {
			tab[c] |= ptbClassURLStart
		}
	}
	return tab
}()

// isPTBSpace reports characters the lexer treats as token separators: Unicode
// spaces (newlines included, which the toolkit has already replaced) and
// control characters, which PTBLexer deletes.
func isPTBSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && ptbASCII[r]&ptbClassSpace != 0
	}
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200b' || r == '\ufeff'
}

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && ptbASCII[r]&ptbClassAlnum != 0
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' || r == '\u0092' }

// runeAt decodes the character at byte i, returning 0, 0 past the end (as
// the rune-based lexer this replaced read position len as 0). An invalid
// byte is utf8.RuneError of width 1, as converting the text to []rune gives.
func (t *ptbTokenizer) runeAt(i int) (rune, int) {
	if i >= len(t.src) {
		return 0, 0
	}
	if c := t.src[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(t.src[i:])
}

func (t *ptbTokenizer) at(i int) rune {
	r, _ := t.runeAt(i)
	return r
}

// before returns the character that ends at byte i (0 at the start). Decoding
// backwards agrees with decoding forwards: a valid sequence starts with a
// byte that cannot continue another one.
func (t *ptbTokenizer) before(i int) rune {
	if i <= 0 {
		return 0
	}
	if c := t.src[i-1]; c < utf8.RuneSelf {
		return rune(c)
	}
	r, _ := utf8.DecodeLastRuneInString(t.src[:i])
	return r
}

// keep appends tok lower-cased, after a space unless it is the first token.
// Lower-casing is strings.ToLower's: ASCII directly, other characters with
// unicode.ToLower, invalid bytes as U+FFFD.
func (t *ptbTokenizer) keep(tok string) {
	if t.wrote {
		t.dst = append(t.dst, ' ')
	}
	t.wrote = true
	t.dst = appendLower(t.dst, tok)
}

// emit appends tok as keep does unless the toolkit drops it.
func (t *ptbTokenizer) emit(tok string) {
	if !isPTBDropped(tok) {
		t.keep(tok)
	}
}

// appendLower appends strings.ToLower(s) to dst.
func appendLower(dst []byte, s string) []byte {
	n := len(dst)
	dst = append(dst, s...)
	for i := n; i < len(dst); i++ {
		c := dst[i]
		if c >= utf8.RuneSelf {
			dst = dst[:i]
			for _, r := range s[i-n:] {
				dst = utf8.AppendRune(dst, unicode.ToLower(r))
			}
			return dst
		}
		if 'A' <= c && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}

func (t *ptbTokenizer) run() {
	s := t.src
	for t.pos < len(s) {
		c := s[t.pos]
		if ptbASCII[c]&ptbClassSpace != 0 {
			t.pos++
			continue
		}
		if ptbASCII[c]&(ptbClassAlnum|ptbClassURLStart) == ptbClassAlnum && !t.hasAt {
			// An ASCII letter or digit that cannot start a URL or an
			// e-mail address starts a word: the common case.
			t.lexWord(t.pos, t.pos)
			continue
		}
		r, w := t.runeAt(t.pos)
		switch {
		case isPTBSpace(r):
			t.pos += w
		case r == '<':
			t.lexAngle()
		case r == '&':
			t.lexAmpersand()
		case t.lexURL():
		case t.hasAt && t.lexEmail():
		case isAlnum(r):
			t.lexWord(t.pos, t.pos)
		case (r == '-' || r == '+' || r == '\u2212') && unicode.IsDigit(t.at(t.pos+w)) && (t.pos == 0 || isPTBSpace(t.before(t.pos))):
			// NUMBER allows a leading sign when the number starts a token.
			t.lexWord(t.pos, t.pos+w)
		default:
			t.lexPunct(r, w)
		}
	}
}

// lexAngle reads an SGML/HTML tag such as <b> or </b> as one token, or a bare "<".
func (t *ptbTokenizer) lexAngle() {
	s := t.src
	i := t.pos + 1
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i < len(s) && (isASCIILetter(s[i]) || s[i] == '!' || s[i] == '?') {
	scan:
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '>':
				t.keep(s[t.pos : j+1])
				t.pos = j + 1
				return
			case '\n', '<':
				break scan
			}
		}
	}
	t.keep("<")
	t.pos++
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isASCIIAlnum(c byte) bool { return ptbASCII[c]&ptbClassAlnum != 0 }

// lexAmpersand reads an HTML entity as one token (&amp; normalised to &, as
// ptb3Escaping does) or a bare "&".
func (t *ptbTokenizer) lexAmpersand() {
	s := t.src
	j := t.pos + 1
	if j < len(s) && s[j] == '#' {
		j++
	}
	k := j
	for k < len(s) && k-j < 10 && isASCIIAlnum(s[k]) {
		k++
	}
	if k > j && k < len(s) && s[k] == ';' {
		ent := s[t.pos : k+1]
		if strings.EqualFold(ent, "&amp;") {
			ent = "&"
		}
		t.keep(ent)
		t.pos = k + 1
		return
	}
	t.keep("&")
	t.pos++
}

// lexURL reads http://, https://, ftp:// and www. addresses whole, leaving
// trailing sentence punctuation for the next token.
func (t *ptbTokenizer) lexURL() bool {
	s := t.src
	switch s[t.pos] {
	case 'h', 'H', 'f', 'F', 'w', 'W':
	default:
		return false
	}
	rest := s[t.pos:]
	// Every prefix below is at least four bytes long with t or w second;
	// most words starting with h, f or w fail this cheaper test.
	if len(rest) < len("www.") || rest[1]|0x20 != 't' && rest[1]|0x20 != 'w' {
		return false
	}
	hasPrefix := func(p string) bool {
		return len(rest) >= len(p) && strings.EqualFold(rest[:len(p)], p)
	}
	if !(hasPrefix("http://") || hasPrefix("https://") || hasPrefix("ftp://") || hasPrefix("www.")) {
		return false
	}
	end := t.pos
	for end < len(s) {
		if c := s[end]; c < utf8.RuneSelf {
			if ptbASCII[c]&ptbClassURLStop != 0 {
				break
			}
			end++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[end:])
		if isPTBSpace(r) {
			break
		}
		end += w
	}
	for end > t.pos {
		r, w := utf8.DecodeLastRuneInString(s[:end])
		if !strings.ContainsRune(".,;:!?)]}'\u2019\u201d", r) {
			break
		}
		end -= w
	}
	// The URL starts with an ASCII prefix longer than "www.", so comparing
	// bytes here is comparing characters.
	if end-t.pos <= len("www.") {
		return false
	}
	t.keep(s[t.pos:end])
	t.pos = end
	return true
}

// lexEmail reads name@host.domain whole.
func (t *ptbTokenizer) lexEmail() bool {
	s := t.src
	i := t.pos
	for i < len(s) && ptbASCII[s[i]]&ptbClassEmail != 0 {
		i++
	}
	if i == t.pos || i >= len(s) || s[i] != '@' {
		return false
	}
	j := i + 1
	k := j
	for k < len(s) && (isASCIIAlnum(s[k]) || s[k] == '.' || s[k] == '-') {
		k++
	}
	for k > j && !isASCIIAlnum(s[k-1]) {
		k--
	}
	if k-j < 3 || strings.IndexByte(s[j:k], '.') < 0 {
		return false
	}
	t.keep(s[t.pos:k])
	t.pos = k
	return true
}
