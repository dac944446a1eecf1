package main

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"

	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/rovist"
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
		streamedNote,
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	// A batch of stories is split in parallel and printed before the next
	// is read.
	bw := bufio.NewWriterSize(stdout, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	var lines []tokensLine
	err := eachStoryBatch(*storiesPath, func(batch []story.Story) error {
		lines = slices.Grow(lines[:0], len(batch))[:len(batch)]
		parallel.Chunks(len(batch), 8, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				lines[i] = storyTokens(batch[i])
			}
		})
		for i := range lines {
			if err := enc.Encode(lines[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// storyTokens splits a story as RoViST does (rovist.Tokens).
func storyTokens(st story.Story) tokensLine {
	line := tokensLine{ID: st.ID}
	line.Sentences, line.Words = rovist.Tokens(st.Text)
	return line
}
