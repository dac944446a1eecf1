package stylem

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/ngram"
)

// EOS is the end-of-sentence token appended to every tokenized caption, as
// the reference does before counting n-grams, so "<eos>" takes part in
// n-grams (chengxili/preStyleM, its n-gram counting script).
const EOS = "<eos>"

// PTBStep is the tokenization step run after RETOK splitting: it takes the
// space-joined RETOK tokens of one caption and returns lower-cased tokens,
// punctuation dropped, joined by single spaces. PTB and Simple are the two
// steps provided; any function with this contract can be plugged in.
type PTBStep func(caption string) string

// PTB is the COCO caption toolkit's PTB tokenization (ngram.PTBTokenize):
// Stanford PTBTokenizer, lower-cased, punctuation tokens dropped. It is what
// the reference runs.
func PTB(caption string) string { return ngram.PTBTokenize(caption) }

// Simple lower-cases the caption (as str.lower), splits it on white space and drops the
// tokens of the COCO toolkit's punctuation list. It is the stand-in for the
// Java PTB tokenizer that the golden fixture was generated with.
//
// Matches the reference's drop list, which is compared with lower-cased
// tokens, so the upper-case bracket names (-LRB- …) never match.
func Simple(caption string) string {
	toks := strings.FieldsFunc(pyunicode.Lower(caption), pyunicode.IsSpace)
	kept := toks[:0]
	for _, t := range toks {
		if !ptbPunctuation[t] {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, " ")
}

// ptbPunctuation is the COCO toolkit's PUNCTUATIONS list (tokenizer/ptbtokenizer.py).
var ptbPunctuation = map[string]bool{
	"''": true, "'": true, "``": true, "`": true, "-LRB-": true, "-RRB-": true,
	"-LCB-": true, "-RCB-": true, ".": true, "?": true, "!": true, ",": true,
	":": true, "-": true, "--": true, "...": true, ";": true,
}

// StepByName returns the PTB step called name: "ptb" or "simple".
func StepByName(name string) (PTBStep, error) {
	switch name {
	case "ptb":
		return PTB, nil
	case "simple":
		return Simple, nil
	}
	return nil, fmt.Errorf("unknown tokenization %q (want ptb or simple)", name)
}

// Tokenize turns one raw caption into the tokens the reference counts
// n-grams over: the RETOK pattern \w+|[^\w\s]|\n splits the text into word
// runs and single symbols, step (PTB or Simple) lower-cases and drops
// punctuation, and EOS is appended. A nil step means PTB.
func Tokenize(caption string, step PTBStep) []string {
	if step == nil {
		step = PTB
	}
	toks := strings.FieldsFunc(step(retokJoin(caption)), pyunicode.IsSpace)
	return append(toks, EOS)
}

// retokJoin applies the reference's RETOK = re.compile(r'\w+|[^\w\s]|\n')
// and joins the matches with single spaces. Python's \w is a letter, a
// number or '_' and \s is str.isspace; a newline is its own match.
func retokJoin(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	inWord := false
	for _, r := range s {
		switch {
		case pyunicode.IsWord(r):
			if !inWord && b.Len() > 0 {
				b.WriteByte(' ')
			}
			inWord = true
			b.WriteRune(r)
		case r == '\n' || !pyunicode.IsSpace(r):
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			inWord = false
			b.WriteRune(r)
		default:
			inWord = false
		}
	}
	return b.String()
}
