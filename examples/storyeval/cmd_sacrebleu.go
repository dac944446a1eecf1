package main

import (
	"flag"
	"fmt"
	"io"

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
	fs := flag.NewFlagSet("sacrebleu", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", `corpus JSON file {"cands": {id: str}, "refs": {id: [str, ...]}} (required)`)
	lowercase := fs.Bool("lowercase", false, "lower-case before tokenizing (SacreBLEU -lc)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval sacrebleu -in FILE.json [-lowercase]")
		fmt.Fprintln(stderr, "items are sentence_bleu scores (effective order), the corpus score is corpus_bleu")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *in == "" {
		fs.Usage()
		return fmt.Errorf("-in is required")
	}
	c, err := ngram.ReadCorpus(*in)
	if err != nil {
		return err
	}
	s, err := ngram.SacreBLEU(c, &ngram.SacreBLEUOptions{Lowercase: *lowercase})
	if err != nil {
		return err
	}
	out := struct {
		Score Float            `json:"score"`
		Items map[string]Float `json:"items"`
	}{Score: Float(s.Corpus), Items: map[string]Float{}}
	for id, x := range s.Items {
		out.Items[id] = Float(x)
	}
	return writeJSON(stdout, out)
}
