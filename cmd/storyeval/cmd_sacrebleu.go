package main

import (
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/ngram"
)

func init() {
	register(command{
		name:    "sacrebleu",
		summary: "SacreBLEU BLEU (13a, exp smoothing, 0-100) of a corpus file",
		run:     runSacreBLEU,
	})
}

func runSacreBLEU(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sacrebleu", stderr)
	in := fs.String("in", "", `corpus JSON file {"cands": {id: str}, "refs": {id: [str, ...]}} (required)`)
	lowercase := fs.Bool("lowercase", false, "lower-case before tokenizing (SacreBLEU -lc)")
	format := formatFlag(fs)
	setUsage(fs,
		"usage: storyeval sacrebleu [-lowercase] [-format json|csv] -in FILE.json",
		"The corpus score is corpus_bleu; items are sentence_bleu scores (effective order), in the input's order.",
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if err := requireFlags(fs, "in"); err != nil {
		return err
	}
	c, err := ngram.LoadCorpus(*in, limits.Limits{})
	if err != nil {
		return err
	}
	s, err := ngram.SacreBLEU(c, ngram.SacreBLEUOptions{Lowercase: *lowercase})
	if err != nil {
		return err
	}
	ids := c.IDs()
	t := &scoreTable{metrics: []string{"BLEU"}, corpus: []float64{s.Corpus}, ids: ids, items: make([][]float64, len(ids))}
	for i, id := range ids {
		t.items[i] = []float64{s.Items[id]}
	}
	return t.write(stdout, *format)
}
