package ngram

import (
	"unicode"
)

// isPTBAssimilation reports whether a lower-cased word is one PTBLexer
// splits in two after its third letter (ASSIMILATIONS2/3).
func isPTBAssimilation(w []byte) bool {
	switch len(w) {
	case 5:
		s := string(w)
		return s == "gonna" || s == "gotta" || s == "wanna" || s == "lemme" || s == "gimme"
	case 6:
		return string(w) == "cannot"
	}
	return false
}

// lexWord reads a word or number starting at an alphanumeric character at
// byte start: letters and digits joined by hyphens, underscores, inner
// periods ("u.s", "3.50"), digit-group commas and colons ("1,000", "5:30"),
// slashes ("a/b") and inner apostrophes ("o'clock"); then splits clitics,
// assimilations and the final period the way PTBLexer does. The first token
// begins at tokStart, before start when the number has a sign.
func (t *ptbTokenizer) lexWord(tokStart, start int) {
	s := t.src
	i := start
	prev := t.before(start) // the character before byte i
	clitic := ""            // the lower-cased clitic token that ends the word
	cliticEnd := 0          // byte offset just past the clitic
scan:
	for i < len(s) {
		if c := s[i]; ptbASCII[c]&ptbClassAlnum != 0 {
			// ASCII letters and digits: the common case.
			prev = rune(c)
			i++
			continue
		} else if ptbASCII[c]&ptbClassSpace != 0 {
			// A space ends the word: the next most common case.
			break
		}
		r, w := t.runeAt(i)
		next := t.at(i + w)
		switch {
		case isAlnum(r):
		case r == '-' || r == '_' || r == '.' || r == '/':
			if !isAlnum(next) {
				break scan
			}
		case r == ',' || r == ':':
			if !(unicode.IsDigit(prev) && unicode.IsDigit(next)) {
				break scan
			}
		case r == '&':
			if !(unicode.IsUpper(prev) && unicode.IsUpper(next)) {
				break scan
			}
		case isApostrophe(r):
			if c, end := t.cliticAt(i+w, prev); c != "" {
				clitic, cliticEnd = c, end
				break scan
			}
			// prev is 'n' at byte i-1 here, so i-1 > start says the n
			// is not the word's first character.
			if (next == 't' || next == 'T') && (prev == 'n' || prev == 'N') && !isAlnum(t.at(i+w+1)) && i-1 > start {
				clitic, cliticEnd = "n't", i+w+1
				break scan
			}
			if !unicode.IsLetter(next) {
				break scan
			}
		default:
			break scan
		}
		prev = r
		i += w
	}
	t.pos = i
	switch {
	case clitic == "n't":
		t.keep(s[tokStart : i-1])
		t.keep(clitic)
		t.pos = cliticEnd
		return
	case clitic != "":
		t.keep(s[tokStart:i])
		t.keep(clitic)
		t.pos = cliticEnd
		return
	}
	word := s[start:i]
	if (len(word) == 5 || len(word) == 6) && t.isAssimilation(word) {
		t.keep(s[tokStart : start+3])
		t.keep(word[3:])
		return
	}
	if i < len(s) && s[i] == '.' && t.keepsPeriod(word) {
		t.keep(s[tokStart : i+1])
		t.pos = i + 1
		return
	}
	t.keep(s[tokStart:i])
}

// isAssimilation reports whether word, lower-cased, is split by PTBLexer.
func (t *ptbTokenizer) isAssimilation(word string) bool {
	switch word[0] | 0x20 {
	case 'c', 'g', 'w', 'l':
	default:
		// No other first character lower-cases to one of these.
		return false
	}
	t.lower = appendLower(t.lower[:0], word)
	return isPTBAssimilation(t.lower)
}

// cliticAt returns the lower-cased clitic token ("'s", "'re", ...) whose
// letters start at byte j, just after an apostrophe that follows prev, and
// the byte offset just past it; or "" when none ends the word there. The
// clitics' letters are matched as bytes: no character outside ASCII
// lower-cases to s, r, e, v, l, d or m.
func (t *ptbTokenizer) cliticAt(j int, prev rune) (string, int) {
	s := t.src
	if j >= len(s) {
		return "", 0
	}
	var c string
	switch s[j] | 0x20 {
	case 's':
		c = "'s"
	case 'r':
		c = "'re"
	case 'v':
		c = "'ve"
	case 'l':
		c = "'ll"
	case 'd':
		c = "'d"
	case 'm':
		c = "'m"
	default:
		return "", 0
	}
	end := j + len(c) - 1
	if end > len(s) || len(c) == 3 && s[j+1]|0x20 != c[2] {
		return "", 0
	}
	// The apostrophe follows the word's first character or later, so
	// there is always a character before it.
	if isAlnum(t.at(end)) || !isAlnum(prev) {
		return "", 0
	}
	return c, end
}

// keepsPeriod reports whether a word followed by a period is an
// abbreviation whose period PTBLexer keeps: acronyms and initials ("U.S",
// "p.m", "C") and the listed abbreviations ("Mr", "St", "Mass", "etc").
func (t *ptbTokenizer) keepsPeriod(word string) bool {
	if isAcronym(word) {
		return true
	}
	// A word whose first byte is not ASCII is rejected: only İ and the
	// Kelvin sign lower-case to ASCII (i, k), and no any-case abbreviation
	// starts with either (TestPTBAbbreviationFirst checks).
	first := ptbAbbreviationFirst[word[0]]
	if first&ptbFirstCased != 0 && ptbAbbreviations[word] {
		return true
	}
	if first&ptbFirstAnyCase == 0 {
		return false
	}
	t.lower = appendLower(t.lower[:0], word)
	return ptbAbbreviationsAnyCase[string(t.lower)]
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
