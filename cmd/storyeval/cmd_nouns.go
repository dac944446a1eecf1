package main

import (
	"io"

	"github.com/storyeval/storyeval/rovist"
)

func init() {
	register(command{
		name:    "nouns",
		summary: "RoViST's nouns per sentence (NLTK sentences, words, POS tags) of each story",
		run:     runNouns,
	})
}

func runNouns(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nouns", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setUsage(fs,
		"usage: storyeval nouns -stories FILE.json",
		"\nPrints {id: [[sorted unique nouns of sentence 1], ...]} in the input's order.",
		streamedNote,
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	out := rovist.NewNounsWriter(stdout)
	if err := eachStoryText(*storiesPath, rovist.NounsAll, out.Write); err != nil {
		return err
	}
	return out.Close()
}
