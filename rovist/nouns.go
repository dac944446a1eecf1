package rovist

import (
	"slices"
	"strings"
)

// placeholders are VIST's anonymisation tokens and what RoViST's noun
// extraction (scripts/extract_nouns.py) turns them into before tagging, in
// the order the reference applies its str.replace calls.
var placeholders = [...]struct{ from, to string }{
	{"[male]", "male"},
	{"[female]", "female"},
	{"[location]", "location"},
	{"[organization]", "organization"},
}

// replacePlaceholders rewrites the placeholders one after the other, as the
// reference's chained str.replace calls do (so "[fe[male]]" becomes
// "female", not "fe[male]").
func replacePlaceholders(sentence string) string {
	for _, p := range placeholders {
		sentence = strings.ReplaceAll(sentence, p.from, p.to)
	}
	return sentence
}

// isNounTag reports whether a Penn Treebank tag is one RoViST keeps: NN,
// NNS, NNP, NNPS.
func isNounTag(tag string) bool {
	switch tag {
	case "NN", "NNS", "NNP", "NNPS":
		return true
	}
	return false
}

// sentenceNouns returns the distinct tokens tagged as nouns, sorted.
//
// Matches the reference implementation, which skips the token "i" (only in
// lower case; "I" is tagged PRP anyway), does not lower-case, and collects
// the nouns of a sentence in a Python set, whose iteration order is
// arbitrary; sorting makes the result deterministic.
func sentenceNouns(tokens, tags []string) []string {
	nouns := []string{}
	for i, tok := range tokens {
		if tok == "i" || !isNounTag(tags[i]) {
			continue
		}
		nouns = append(nouns, tok)
	}
	slices.Sort(nouns) // byte order of UTF-8 is code-point order, as Python sorts
	return slices.Compact(nouns)
}
