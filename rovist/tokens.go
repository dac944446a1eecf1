package rovist

import (
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
)

// Tokens splits a story as RoViST's scripts do before tagging it: NLTK
// 3.8's sent_tokenize (Punkt, English), then word_tokenize of each
// sentence, which runs Punkt again on the sentence as the reference calls
// it. An empty story has no sentences; the slices are never nil, so that
// they encode as [] in JSON. Tokens is safe for concurrent use.
func Tokens(story string) (sents []string, sentWords [][]string) {
	sents = sentences.Split(story)
	if sents == nil {
		sents = []string{}
	}
	sentWords = make([][]string, len(sents))
	for i, s := range sents {
		sentWords[i] = words.Tokenize(s)
		if sentWords[i] == nil {
			sentWords[i] = []string{}
		}
	}
	return sents, sentWords
}
