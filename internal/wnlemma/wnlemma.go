// Package wnlemma is NLTK 3.8's WordNetLemmatizer for nouns
// (WordNetLemmatizer().lemmatize(word), pos "n"), on WordNet 3.0's noun index
// and noun exception list, embedded (gzipped) in wordnetdata/.
//
// GROOViST looks a word up in the concreteness ratings and, when it is not
// rated, retries its WordNet noun lemma; this package gives that lemma
// exactly as NLTK does: WordNetCorpusReader._morphy with the noun exception
// list first, then the noun detachment rules applied once and, when none of
// the results is a noun in the index, again and again on the results; the
// shortest surviving form (the first of equal length) is the lemma, and the
// word itself when there is none.
//
// The data come from WordNet 3.0 (Princeton University; licence in
// wordnetdata/COPYING.WORDNET.gz): the lemma column of dict/index.noun and
// dict/noun.exc. They are the same WordNet release as the synonym data that
// ngram embeds for METEOR, which carries no part of speech and so cannot
// decide noun membership.
package wnlemma

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"
)

//go:embed wordnetdata/index.noun.lemmas.gz
var nounLemmasGz []byte

//go:embed wordnetdata/noun.exc.gz
var nounExcGz []byte

// nounSubstitutions are NLTK's MORPHOLOGICAL_SUBSTITUTIONS[NOUN], in order.
var nounSubstitutions = [...][2]string{
	{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"},
	{"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
}

// Nouns is a noun lemmatizer. It is immutable and safe for concurrent use.
type Nouns struct {
	lemmas     map[string]struct{}
	exceptions map[string][]string
}

var (
	englishOnce  sync.Once
	englishNouns *Nouns
	englishErr   error
)

// English returns the lemmatizer on the embedded WordNet 3.0 data, decoded
// on first use and shared afterwards (it is read-only).
func English() (*Nouns, error) {
	englishOnce.Do(func() {
		englishNouns, englishErr = decode(nounLemmasGz, nounExcGz)
	})
	return englishNouns, englishErr
}

func gunzipLines(data []byte, fn func(line string) error) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if err := fn(sc.Text()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return err
	}
	return nil
}

func decode(lemmasGz, excGz []byte) (*Nouns, error) {
	n := &Nouns{lemmas: make(map[string]struct{}, 120000), exceptions: make(map[string][]string, 2100)}
	err := gunzipLines(lemmasGz, func(line string) error {
		if line != "" {
			n.lemmas[line] = struct{}{}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("noun index: %w", err)
	}
	err = gunzipLines(excGz, func(line string) error {
		// NLTK: terms = line.split(); exceptions[terms[0]] = terms[1:]
		terms := strings.Fields(line)
		if len(terms) > 0 {
			n.exceptions[terms[0]] = terms[1:]
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("noun exceptions: %w", err)
	}
	return n, nil
}

// IsNoun reports whether form is a lemma of WordNet's noun index (lower
// case, multi-word lemmas joined by "_").
func (n *Nouns) IsNoun(form string) bool {
	_, ok := n.lemmas[form]
	return ok
}

// Lemma returns WordNetLemmatizer().lemmatize(word) for pos "n": the
// shortest of the noun base forms that _morphy finds, or word unchanged
// when it finds none. Like NLTK it does not change the case of word.
func (n *Nouns) Lemma(word string) string {
	forms := n.morphy(word)
	if len(forms) == 0 {
		return word
	}
	best := forms[0]
	for _, f := range forms[1:] {
		if len(f) < len(best) { // min(key=len) keeps the first of equal length
			best = f
		}
	}
	return best
}

// morphy is WordNetCorpusReader._morphy(form, "n").
func (n *Nouns) morphy(form string) []string {
	if exc, ok := n.exceptions[form]; ok {
		return n.filter(append([]string{form}, exc...))
	}
	forms := applyRules([]string{form})
	if res := n.filter(append([]string{form}, forms...)); len(res) > 0 {
		return res
	}
	for len(forms) > 0 {
		forms = applyRules(forms)
		if res := n.filter(forms); len(res) > 0 {
			return res
		}
	}
	return nil
}

// applyRules applies every matching substitution to every form, in NLTK's
// order (forms outer, rules inner).
func applyRules(forms []string) []string {
	var out []string
	for _, f := range forms {
		for _, s := range nounSubstitutions {
			if strings.HasSuffix(f, s[0]) {
				out = append(out, f[:len(f)-len(s[0])]+s[1])
			}
		}
	}
	return out
}

// filter keeps the forms that are noun lemmas, first occurrences only.
func (n *Nouns) filter(forms []string) []string {
	var out []string
	for _, f := range forms {
		if !n.IsNoun(f) {
			continue
		}
		dup := false
		for _, o := range out {
			if o == f {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}
