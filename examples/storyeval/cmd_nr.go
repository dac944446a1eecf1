package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/rovist"
)

func init() {
	register(command{
		name:    "nr",
		summary: "RoViST-NR (non-redundancy) of each story, as CSV id,score",
		run:     runNR,
	})
}

func runNR(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("nr", flag.ContinueOnError)
	fs.SetOutput(stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setJaccard := fs.Bool("set-jaccard", false, "score pairs with the paper's set Jaccard index instead of the reference code's count of equal token pairs")
	block := fs.Int("block", rovist.DefaultBlockLength, "length of the token blocks compared within a sentence")
	strict := fs.Bool("error-on-empty-union", false, "fail, as the original scorer's ZeroDivisionError, when two sentences are both empty after the last-token drop (default: skip the pair, as the dHM scorer)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval nr -stories FILE.json [-set-jaccard] [-block N] [-error-on-empty-union]")
		fmt.Fprintln(stderr, "\nPrints CSV id,score in the input's order; the score is NaN for a story")
		fmt.Fprintln(stderr, "with fewer than two sentences, which the reference leaves undefined.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *storiesPath == "" {
		fs.Usage()
		return fmt.Errorf("-stories is required")
	}
	if *block < 1 {
		return fmt.Errorf("-block %d: the block length must be at least 1", *block)
	}
	opts := rovist.NROptions{SetJaccard: *setJaccard, BlockLength: *block, ErrorOnEmptyUnion: *strict}
	ids, texts, err := readStories(*storiesPath)
	if err != nil {
		return err
	}
	stories := make([]string, len(ids))
	for i, id := range ids {
		stories[i] = texts[id]
	}
	results, errs := rovist.NonRedundancyAll(stories, opts)
	w := csv.NewWriter(stdout)
	if err := w.Write([]string{"id", "score"}); err != nil {
		return err
	}
	for i, id := range ids {
		if errs[i] != nil {
			return fmt.Errorf("story %q: %w", id, errs[i])
		}
		if err := w.Write([]string{id, formatFloat(results[i].Score)}); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
