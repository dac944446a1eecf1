package rovist

import (
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/story"
)

// StoryTokens is a story's sentences and each sentence's words as Tokens
// splits them, with the story's id; the JSON names and field order are the
// lines of storyeval tokens.
type StoryTokens struct {
	ID        string     `json:"id"`
	Sentences []string   `json:"sentences"`
	Words     [][]string `json:"words"`
}

// TokensAll is Tokens of many stories on up to GOMAXPROCS goroutines, in
// input order.
func TokensAll(stories []story.Story) []StoryTokens {
	out := make([]StoryTokens, len(stories))
	parallel.Chunks(len(stories), 8, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i].ID = stories[i].ID
			out[i].Sentences, out[i].Words = Tokens(stories[i].Text)
		}
	})
	return out
}
