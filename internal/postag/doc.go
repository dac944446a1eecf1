// Package postag is NLTK 3.8's averaged-perceptron part-of-speech tagger
// (nltk.pos_tag, nltk/tag/perceptron.py) with NLTK's English model embedded,
// reproducing NLTK's tags exactly.
//
// Exactness needs three things that approximate ports get wrong: the
// feature templates and word normalisation exactly as NLTK builds them
// (including Python's str.isdigit and str.lower on non-ASCII text), the
// scores summed in NLTK's order in float64, and ties between tags broken as
// NLTK's max(classes, key=lambda label: (score, label)) does, in favour of the
// greater tag string. The model (Penn Treebank tags, from nltk_data
// taggers/averaged_perceptron_tagger, Apache-2.0) is decoded once, on first
// use; internal/modelgen re-encodes it losslessly from NLTK's JSON export
// into the 0.65 MB file embedded here.
package postag
