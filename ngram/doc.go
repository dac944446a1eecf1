// Package ngram computes the classic n-gram caption metrics exactly as their
// reference implementations do: the COCO caption toolkit (pycocoevalcap) —
// PTB tokenization, BLEU-1..4, METEOR 1.5, ROUGE-L and CIDEr-D — SacreBLEU's
// BLEU with the 13a tokenizer, and NLTK 3.8's sentence_bleu and corpus_bleu
// with its smoothing methods. METEOR also runs with Meteor 1.5's other task
// parameter sets and normalizations, and as the AREL/MSR VIST evaluation
// scripts run it (MeteorVISTOptions, Meteor.CorpusScoresVIST).
//
// Candidates and references are keyed by id in a Corpus. Each metric returns
// a corpus score and one score per item; as in the toolkit, the corpus score
// is not always the mean of the item scores (BLEU sums n-gram statistics,
// CIDEr-D's idf depends on the whole corpus). Inputs are scored as given; run
// them through PTBTokenize first (Corpus.Tokenized) to reproduce what the
// toolkit reports, since it tokenizes before scoring.
//
// Every quirk of the reference code is kept and documented on the function
// that reproduces it, so published numbers reproduce to the last digit.
//
// Evaluate computes a set of these metrics by name into one table of corpus
// and item scores, with the toolkit's column names, as COCOEvalCap does.
package ngram
