// Package words tokenizes text into words exactly as NLTK 3.8's
// nltk.word_tokenize does: Punkt sentence splitting (package sentences)
// followed by NLTKWordTokenizer, NLTK's improved Penn Treebank tokenizer
// (nltk/tokenize/destructive.py), on each sentence.
//
// NLTKWordTokenizer is a cascade of regular-expression substitutions. Two of
// them use look-ahead and several use Python's Unicode classes \w, \d, \s
// and \b, which Go's regexp cannot express, so every rule is written by hand
// as a pass over the sentence's code points, in NLTK's order and with
// Python's leftmost, non-overlapping substitution semantics.
//
// The tokenizer is destructive, as NLTK's: a double quote becomes the token
// of two backticks (opening) or of two apostrophes (closing), and the output tokens cannot always be aligned with the
// input. Text is read as UTF-8; an invalid byte becomes U+FFFD, as when
// Python decodes with errors="replace". All functions are safe for
// concurrent use.
package words
