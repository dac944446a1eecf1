package main

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func runNR(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nr", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setJaccard := fs.Bool("set-jaccard", false, "score pairs with the paper's set Jaccard index instead of the reference code's count of equal token pairs")
	block := fs.Int("block", rovist.DefaultBlockLength, "length of the token blocks compared within a sentence")
	strict := fs.Bool("error-on-empty-union", false, "fail, as the original scorer's ZeroDivisionError, when two sentences are both empty after the last-token drop (default: skip the pair, as the dHM scorer)")
	format := formatFlag(fs)
	setUsage(fs,
		"usage: storyeval nr [-set-jaccard] [-block N] [-error-on-empty-union] [-format json|csv] -stories FILE.json",
		"\nPrints each story's score (\"nr\") in the input's order; the score is NaN (null in JSON) for a",
		"story with fewer than two sentences, which the reference leaves undefined.",
		streamedNote,
	)
	if err := parseRequired(fs, args, format, "stories"); err != nil {
		return err
	}
	if *block < 1 {
		return fmt.Errorf("-block %d: the block length must be at least 1", *block)
	}
	opts := rovist.NROptions{SetJaccard: *setJaccard, BlockLength: *block, ErrorOnEmptyUnion: *strict}
	tw, err := compare.NewTableWriter(stdout, *format == formatCSV, []string{"nr"}, nil)
	if err != nil {
		return err
	}
	score := func(texts []string) ([]rovist.NRResult, []error) { return rovist.NonRedundancyAll(texts, opts) }
	err = story.EachResultFile(*storiesPath, storyRead, storyBatch, score, func(id string, r rovist.NRResult) error {
		return tw.Add(id, []float64{r.Score})
	})
	if err != nil {
		return err
	}
	return tw.Close(nil)
}

func runNouns(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nouns", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setUsage(fs,
		"usage: storyeval nouns -stories FILE.json",
		"\nPrints {id: [[sorted unique nouns of sentence 1], ...]} in the input's order.",
		streamedNote,
	)
	if err := parseRequired(fs, args, nil, "stories"); err != nil {
		return err
	}
	out := rovist.NewNounsWriter(stdout)
	if err := story.EachResultFile(*storiesPath, storyRead, storyBatch, rovist.NounsAll, out.Write); err != nil {
		return err
	}
	return out.Close()
}
