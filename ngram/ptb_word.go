package ngram

import (
	"strings"
	"unicode"
)

// ptbClitics are the endings PTBLexer splits off a word after an apostrophe
// (REDAUX); "n't" is handled separately because the split falls before the n.
var ptbClitics = []string{"s", "re", "ve", "ll", "d", "m"}

// ptbAssimilations are whole words PTBLexer splits in two (ASSIMILATIONS2/3).
var ptbAssimilations = map[string]int{
	"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "lemme": 3, "gimme": 3,
}

// lexWord reads a word or number starting at an alphanumeric character:
// letters and digits joined by hyphens, underscores, inner periods ("u.s",
// "3.50"), digit-group commas and colons ("1,000", "5:30"), slashes ("a/b")
// and inner apostrophes ("o'clock"); then splits clitics, assimilations and
// the final period the way PTBLexer does.
func (lx *ptbLexer) lexWord() {
	start := lx.pos
	i := start
	clitic := ""
scan:
	for i < len(lx.in) {
		r := lx.in[i]
		next := lx.at(i + 1)
		switch {
		case isAlnum(r):
			i++
		case r == '-' || r == '_':
			if !isAlnum(next) {
				break scan
			}
			i++
		case r == '.':
			if !isAlnum(next) {
				break scan
			}
			i++
		case r == ',' || r == ':':
			if !(unicode.IsDigit(lx.at(i-1)) && unicode.IsDigit(next)) {
				break scan
			}
			i++
		case r == '/':
			if !isAlnum(next) {
				break scan
			}
			i++
		case r == '&':
			if !(unicode.IsUpper(lx.at(i-1)) && unicode.IsUpper(next)) {
				break scan
			}
			i++
		case isApostrophe(r):
			if c := lx.cliticAt(i); c != "" {
				clitic = c
				break scan
			}
			if (next == 't' || next == 'T') && (lx.at(i-1) == 'n' || lx.at(i-1) == 'N') && !isAlnum(lx.at(i+2)) && i-1 > start {
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
	} else if n, ok := ptbAssimilations[strings.ToLower(word)]; ok {
		lx.emit(word[:n])
		lx.emit(word[n:])
		return
	}
	if lx.at(i) == '.' && ptbKeepsPeriod(word) {
		lx.emit(word + ".")
		lx.pos = i + 1
		return
	}
	lx.emit(word)
}

// cliticAt returns the clitic ("s", "re", ...) that follows the apostrophe
// at position i when it ends the word, or "".
func (lx *ptbLexer) cliticAt(i int) string {
	for _, c := range ptbClitics {
		j := i + 1
		ok := true
		for _, cr := range c {
			if unicode.ToLower(lx.at(j)) != cr {
				ok = false
				break
			}
			j++
		}
		if ok && !isAlnum(lx.at(j)) && i > 0 && isAlnum(lx.at(i-1)) {
			return c
		}
	}
	return ""
}

// ptbKeepsPeriod reports whether a word followed by a period is an
// abbreviation whose period PTBLexer keeps: acronyms and initials ("U.S",
// "p.m", "C") and the listed abbreviations ("Mr", "St", "Mass", "etc").
func ptbKeepsPeriod(word string) bool {
	if isAcronym(word) {
		return true
	}
	return ptbAbbreviations[word] || ptbAbbreviationsAnyCase[strings.ToLower(word)]
}

// isAcronym matches [A-Za-z](\.[A-Za-z])*: "C", "U.S", "p.m", "e.g".
func isAcronym(w string) bool {
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
