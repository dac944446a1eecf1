// Package apmodel reads and writes the compact binary encoding in which
// package postag embeds NLTK's averaged-perceptron English model.
//
// NLTK ships the model as a pickle (about 6 MB as JSON): a dict from feature
// string to {tag: weight}, a tag dictionary of unambiguous words, and the set
// of tags. Every weight in that model is a multiple of 0.001, because NLTK's
// AveragedPerceptron.average_weights rounds to three decimals, so a weight is
// stored here as an integer number of thousandths; float64(k)/1000 is the
// correctly rounded double nearest to k/1000, which is exactly the double
// Python parsed from the decimal literal.
//
// The encoding (gzip-compressed) is columnar, because like data compresses
// better next to like data:
//
//	magic "NLTKAP\x02"
//	uvarint #classes, then each class as uvarint length + bytes (ascending)
//	uvarint #tagdict entries, then each as a front-coded word and a class byte
//	the vocabulary: the words of the context-word features, front-coded
//	for "i word", "i-1 word", "i-2 word", "i+1 word", "i+2 word" in turn:
//	    uvarint count, then delta-coded ascending vocabulary indexes
//	uvarint #tags T with "i-1 tag+i word T W" features; for each: T as
//	    uvarint length + bytes, then W as count + delta-coded indexes
//	every other feature key, as a count and front-coded ascending keys
//	per feature, in the order above: uvarint number of (class, weight) entries
//	per entry: class index delta (index - previous index - 1 within the feature)
//	per entry: low byte of the zig-zag encoded weight in thousandths
//	per entry: uvarint of the remaining high bits
//
// Storing each context word once (17k words serve 69k features) halves the
// size of the keys. Splitting keys this way is lossless for any string:
// a key is rebuilt by joining its parts with single spaces.
//
// Front coding stores each string as uvarint(bytes shared with the previous
// string), uvarint(length of the rest), rest.
package apmodel
