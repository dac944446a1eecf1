package main

import (
	"bufio"
	"encoding/json"
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
	return writeStoryLines(stdout, *storiesPath, func(batch []story.Story) ([]rovist.StoryTokens, error) {
		return rovist.TokensAll(batch), nil // as RoViST splits
	})
}

// writeStoryLines prints, one JSON line each, the values lines makes of
// each batch of the stories file at path, a batch at a time (see
// storyBatch). An error of lines stops the output after the values it
// returned with it.
func writeStoryLines[T any](w io.Writer, path string, lines func(batch []story.Story) ([]T, error)) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err := story.EachBatchFile(path, storyRead, storyBatch, func(batch []story.Story) error {
		out, err := lines(batch)
		for i := range out {
			if err := enc.Encode(out[i]); err != nil {
				return err
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
