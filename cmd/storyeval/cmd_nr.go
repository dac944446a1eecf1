package main

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "nr",
		summary: "RoViST-NR (non-redundancy) of each story",
		run:     runNR,
	})
}

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
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	if *block < 1 {
		return fmt.Errorf("-block %d: the block length must be at least 1", *block)
	}
	opts := rovist.NROptions{SetJaccard: *setJaccard, BlockLength: *block, ErrorOnEmptyUnion: *strict}
	tw, err := newTableWriter(stdout, *format, []string{"nr"}, nil)
	if err != nil {
		return err
	}
	// Each batch is scored and printed before the next is read: no
	// story's per-pair results outlive its batch.
	texts := make([]string, 0, batchStories)
	err = eachStoryBatch(*storiesPath, func(batch []story.Story) error {
		texts = texts[:0]
		for _, st := range batch {
			texts = append(texts, st.Text)
		}
		results, errs := rovist.NonRedundancyAll(texts, opts)
		for i, st := range batch {
			if errs[i] != nil {
				return fmt.Errorf("story %q: %w", st.ID, errs[i])
			}
			if err := tw.add(st.ID, []float64{results[i].Score}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tw.close(nil)
}
