package rovist

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/postag"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
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
// lower case: the tagger often calls it NN), does not lower-case, and collects
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

// Nouns returns the nouns of each sentence of story, as RoViST's noun
// extraction for RoViST-VG (scripts/extract_nouns.py) finds them: one slice
// per sentence of nltk.sent_tokenize(story), holding the distinct tokens that
// nltk.pos_tag tags NN, NNS, NNP or NNPS, in ascending order. A sentence
// without nouns gives an empty slice.
//
// Matches the reference implementation, which replaces the placeholders
// [male], [female], [location] and [organization] by the bare word after
// splitting the story into sentences and before word_tokenize, keeps nouns
// case-sensitive, skips the token "i", and keeps a noun that recurs in
// another sentence once per sentence.
//
// The reference returns one flat list per story; flatten the result to get
// it (the order of nouns within a sentence is arbitrary in the reference, a
// Python set, and sorted here).
func Nouns(story string) ([][]string, error) {
	if !utf8.ValidString(story) {
		return nil, fmt.Errorf("story is not valid UTF-8 text")
	}
	tagger, err := postag.English()
	if err != nil {
		return nil, err
	}
	sents := sentences.Split(story)
	out := make([][]string, len(sents))
	var tags []string
	for i, s := range sents {
		// word_tokenize runs Punkt again on the sentence, as the reference
		// does; a placeholder replacement can change its decision.
		tokens := words.Tokenize(replacePlaceholders(s))
		tags = tagger.AppendTags(tags[:0], tokens)
		out[i] = sentenceNouns(tokens, tags)
	}
	return out, nil
}
