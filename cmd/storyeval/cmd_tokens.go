package main

import (
	"io"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func runTokens(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tokens", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setUsage(fs,
		"usage: storyeval tokens -stories FILE.json",
		"\nPrints one JSON object per story, in the input's order:",
		`{"id": ..., "sentences": nltk.sent_tokenize(story), "words": [nltk.word_tokenize(s) for s in sentences]}`,
		streamedNote,
	)
	if err := parseRequired(fs, args, nil, "stories"); err != nil {
		return err
	}
	return story.WriteJSONLinesFile(stdout, *storiesPath, storyRead, storyBatch, func(batch []story.Story) ([]rovist.StoryTokens, error) {
		return rovist.TokensAll(batch), nil // as RoViST splits
	})
}
