// Package nphrase finds noun phrases in text with a rule-based chunker over
// NLTK's sentence splitter, word tokenizer and averaged-perceptron POS tags
// (internal/sentences, internal/words, internal/postag), approximating spaCy's
// Doc.noun_chunks, which GROOViST's extract_nphrases.py runs with
// en_core_web_trf.
//
// spaCy's chunks come from a dependency parse: a noun or pronoun whose
// relation is subject, object, prepositional object, attribute, apposition,
// dative or root (or a conjunct of one) yields the span from its leftmost
// dependent to itself. A tagger cannot see relations, so the chunker uses the
// shape such spans usually have: an optional predeterminer and determiner or
// possessive, premodifiers (adjectives, participles, numbers, degree adverbs
// before an adjective, nouns used as modifiers, a possessive "'s"), and a
// noun head; personal pronouns (lower-case "i" whatever its tag),
// relative "who"/"that"/"which" (a "that" between a noun and a clause
// subject included) and a demonstrative standing alone are one-word chunks.
// A phrase-final noun that the next tokens show to be a verb ("needs to",
// "turn out") is left out. Temporal phrases used as
// adverbs ("this morning", "yesterday"), which spaCy leaves out
// (npadvmod), are dropped when no preposition governs them.
//
// Like GROOViST's extractor, each sentence's chunks are lower-cased
// (Python's str.lower), de-duplicated within the sentence in order of first
// occurrence, and the sentences' lists concatenated; a chunk keeps the
// text's own spacing between its first and last token. A sentence-final
// mark inside a Punkt sentence (VIST's lower-cased "... gotten . i even
// ...", which Punkt does not split) also ends a sentence, as spaCy's parser
// would.
//
// Agreement with the real spaCy chunks, measured by
// go test -run TestAgreement -v ./internal/nphrase on the 6 distinct stories
// with spaCy lists in the fixtures (GROOViST's sample_nphrases.json and the
// e2e groovist nphrases.json; 71 chunks): precision 0.971, recall 0.944,
// F1 0.957, 3 of 6 story lists identical. The sample is small; treat the
// figures as indicative. What limits it is what a tagger cannot know:
// the parse decides whether a noun is a chunk head at all (an adverbial
// noun, a compound split across a mis-tag), where a right-branching phrase
// ends, and whether a word such as "one" or "that" is a pronoun; tagging
// errors (a verb tagged as a noun, "turn out" read as a noun) become chunk
// errors. Callers who need the published numbers pass spaCy's own lists.
package nphrase
