package sentences

import (
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// firstPass is PunktBaseClass._first_pass_annotation: the sentence-end
// marks are breaks, runs of periods are ellipses, and a word ending in one
// period is an abbreviation when the word (or its part after the last
// hyphen) is a known abbreviation type, and a break otherwise.
func (p *params) firstPass(t *token) {
	switch {
	case t.tok == "." || t.tok == "?" || t.tok == "!":
		t.sentbreak = true
	case t.isEllipsis():
		t.ellipsis = true
	case t.periodFinal && !strings.HasSuffix(t.tok, ".."):
		stem := pyunicode.Lower(t.tok[:len(t.tok)-1]) // the final period is one byte
		last := stem[strings.LastIndexByte(stem, '-')+1:]
		if p.abbrevTypes[stem] || p.abbrevTypes[last] {
			t.abbr = true
		} else {
			t.sentbreak = true
		}
	}
}

// secondPass is PunktSentenceTokenizer._second_pass_annotation: it revises
// the first-pass decision for a period-final token t1 from the token t2
// that follows it.
func (p *params) secondPass(t1, t2 *token) {
	if !t1.periodFinal {
		return
	}
	typ := t1.typeNoPeriod()
	nextTyp := t2.typeNoSentPeriod()
	initial := t1.isInitial()

	// Collocation heuristic: a known (word, next word) pair is never split.
	if p.collocations[[2]string{typ, nextTyp}] {
		t1.sentbreak = false
		t1.abbr = true
		return
	}

	// An abbreviation or ellipsis is also a break when the next word
	// looks like a sentence start.
	if (t1.abbr || t1.ellipsis) && !initial {
		if p.orthoHeuristic(t2) == orthoStarter {
			t1.sentbreak = true
			return
		}
		if t2.firstUpper() && p.sentStarters[nextTyp] {
			t1.sentbreak = true
			return
		}
	}

	// Initials and ordinals are abbreviations unless the next word looks
	// like a sentence start.
	if initial || typ == numberType {
		h := p.orthoHeuristic(t2)
		if h == orthoNotStarter {
			t1.sentbreak = false
			t1.abbr = true
			return
		}
		// An unknown verdict before a word that is always capitalised
		// marks an initial (as in "J. Bach").
		if h == orthoUnknown && initial && t2.firstUpper() &&
			p.orthoContext[nextTyp]&orthoLC == 0 {
			t1.sentbreak = false
			t1.abbr = true
		}
	}
}

// orthoVerdict is the three-valued answer of the orthographic heuristic
// (True, False or "unknown" in punkt.py).
type orthoVerdict int

const (
	orthoUnknown orthoVerdict = iota
	orthoStarter
	orthoNotStarter
)

// orthoHeuristic is PunktSentenceTokenizer._ortho_heuristic: does the
// training data say that t starts a sentence?
func (p *params) orthoHeuristic(t *token) orthoVerdict {
	switch t.tok {
	case ";", ":", ",", ".", "!", "?":
		return orthoNotStarter
	}
	ctx := p.orthoContext[t.typeNoSentPeriod()]
	// Capitalised here, seen lower-case, never capitalised mid-sentence.
	if t.firstUpper() && ctx&orthoLC != 0 && ctx&orthoMidUC == 0 {
		return orthoStarter
	}
	// Lower-case here and either seen capitalised or never seen
	// lower-case at a sentence start.
	if t.firstLower() && (ctx&orthoUC != 0 || ctx&orthoBegLC == 0) {
		return orthoNotStarter
	}
	return orthoUnknown
}

// containsSentbreak is PunktSentenceTokenizer.text_contains_sentbreak: is
// any token of text other than the last a sentence break after both passes?
func (p *params) containsSentbreak(text string, buf *buffers) bool {
	buf.words = punktWords(buf.words[:0], text)
	buf.toks = buf.toks[:0]
	for _, w := range buf.words {
		t := newToken(w)
		p.firstPass(&t)
		buf.toks = append(buf.toks, t)
	}
	// The second pass for token k only reads token k+1's first-pass
	// state, as in NLTK's pipelined generators.
	toks := buf.toks
	for k := 0; k+1 < len(toks); k++ {
		p.secondPass(&toks[k], &toks[k+1])
		if toks[k].sentbreak {
			return true
		}
	}
	return false
}
