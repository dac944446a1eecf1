package sentences

import (
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// token is a Punkt word token with its annotations (punkt.py's PunktToken).
type token struct {
	tok         string
	typ         string // lower-cased, numbers replaced by "##number##"
	periodFinal bool
	sentbreak   bool
	abbr        bool
	ellipsis    bool
}

const numberType = "##number##"

func newToken(tok string) token {
	return token{
		tok:         tok,
		typ:         tokenType(tok),
		periodFinal: strings.HasSuffix(tok, "."),
	}
}

// tokenType is PunktToken._get_type: the lower-cased token, or "##number##"
// when it matches ^-?[.,]?\d[\d,.-]*\.?$ (\d being any Unicode decimal).
func tokenType(tok string) string {
	low := pyunicode.Lower(tok)
	if isNumeric(low) {
		return numberType
	}
	return low
}

func isNumeric(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && (s[i] == '.' || s[i] == ',') {
		i++
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if size == 0 || !pyunicode.IsDecimal(r) {
		return false
	}
	for _, r := range s[i+size:] {
		if r != ',' && r != '.' && r != '-' && !pyunicode.IsDecimal(r) {
			return false
		}
	}
	return true
}

// typeNoPeriod is the type without its final period, if it has one and is
// longer than one character.
func (t *token) typeNoPeriod() string {
	if len(t.typ) > 1 && t.typ[len(t.typ)-1] == '.' {
		return t.typ[:len(t.typ)-1]
	}
	return t.typ
}

// typeNoSentPeriod is the type without its final period when the token is
// marked as a sentence break.
func (t *token) typeNoSentPeriod() string {
	if t.sentbreak {
		return t.typeNoPeriod()
	}
	return t.typ
}

func (t *token) firstRune() rune {
	r, _ := utf8.DecodeRuneInString(t.tok)
	return r
}

func (t *token) firstUpper() bool { return pyunicode.IsUpper(t.firstRune()) }
func (t *token) firstLower() bool { return pyunicode.IsLower(t.firstRune()) }

// isEllipsis: the token is two or more periods.
func (t *token) isEllipsis() bool {
	if len(t.tok) < 2 {
		return false
	}
	for i := 0; i < len(t.tok); i++ {
		if t.tok[i] != '.' {
			return false
		}
	}
	return true
}

// isInitial matches [^\W\d]\.$ : one word character that is not a decimal
// digit, then a period, then the end.
func (t *token) isInitial() bool {
	r, size := utf8.DecodeRuneInString(t.tok)
	return size > 0 && t.tok[size:] == "." && pyunicode.IsWord(r) && !pyunicode.IsDecimal(r)
}
