package main

import (
	"encoding/json"
	"io"

	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "tokens",
		summary: "NLTK 3.8 sentences and per-sentence word tokens of each story, as JSON lines",
		run:     runTokens,
	})
}

// tokensLine is one output line of the tokens subcommand; field order is
// output order.
type tokensLine struct {
	ID        string     `json:"id"`
	Sentences []string   `json:"sentences"`
	Words     [][]string `json:"words"`
}

func runTokens(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tokens", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setUsage(fs,
		"usage: storyeval tokens -stories FILE.json",
		"\nPrints one JSON object per story, in the input's order:",
		`{"id": ..., "sentences": nltk.sent_tokenize(story), "words": [nltk.word_tokenize(s) for s in sentences]}`,
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	set, err := story.ReadJSON(*storiesPath, story.ReadOptions{})
	if err != nil {
		return err
	}
	ids, texts := set.IDs(), set.Texts()
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for i, id := range ids {
		line := tokensLine{ID: id, Sentences: sentences.Split(texts[i])}
		if line.Sentences == nil {
			line.Sentences = []string{} // [] rather than null for an empty story
		}
		line.Words = make([][]string, len(line.Sentences))
		for i, s := range line.Sentences {
			// word_tokenize re-splits each sentence with Punkt, as RoViST
			// calls it.
			line.Words[i] = words.Tokenize(s)
			if line.Words[i] == nil {
				line.Words[i] = []string{}
			}
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}
