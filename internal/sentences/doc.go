// Package sentences splits text into sentences exactly as NLTK 3.8's
// nltk.sent_tokenize does: the Punkt algorithm of Kiss & Strunk (2006) with
// NLTK's pretrained English parameters, which are embedded (gzipped) in the
// package.
//
// The port follows nltk/tokenize/punkt.py: candidate breaks are the '.', '?'
// and '!' that the period-context pattern finds; each candidate's context
// (the word before it, the mark and the following token) is split into Punkt
// word tokens, annotated by type (sentence-end marks, ellipses, known
// abbreviations) and then by context (collocations, the orthographic
// heuristic, frequent sentence starters, initials and ordinals); accepted
// breaks become spans, and closing quotes and brackets after a break are
// moved back into the sentence they close.
//
// Character classes follow Python's Unicode semantics (see
// internal/pyunicode), so decisions on non-ASCII text match NLTK's too.
// Split is safe for concurrent use.
//
// The English parameters (abbreviation types, collocations, sentence
// starters and orthographic contexts) come from github.com/neurosnap/sentences
// data/english.json (MIT licence), a conversion of NLTK's english.pickle.
package sentences
