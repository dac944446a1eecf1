package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/ngram"
)

func init() {
	register(command{
		name:    "ngram",
		summary: "COCO caption metrics (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D) of a corpus file",
		run:     runNgram,
	})
}

// ngramMetrics are the metrics the ngram subcommand can compute, in output
// order; "bleu" contributes Bleu_1..Bleu_4.
var ngramMetrics = []string{"bleu", "meteor", "rouge", "cider"}

// ngramOutput is the JSON the ngram subcommand prints.
type ngramOutput struct {
	Corpus    map[string]Float            `json:"corpus"`
	Items     map[string]map[string]Float `json:"items"`
	Tokenized *ngramTokenized             `json:"tokenized,omitempty"`
}

type ngramTokenized struct {
	Cands map[string]string   `json:"cands"`
	Refs  map[string][]string `json:"refs"`
}

func runNgram(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ngram", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", `corpus JSON file {"cands": {id: str}, "refs": {id: [str, ...]}} (required)`)
	tokenize := fs.String("tokenize", "ptb", "tokenization before scoring: ptb (as the COCO toolkit) or none")
	metrics := fs.String("metrics", strings.Join(ngramMetrics, ","), "comma-separated metrics to compute: "+strings.Join(ngramMetrics, ", "))
	paraphrase := fs.String("meteor-paraphrase", "", "Meteor paraphrase table (paraphrase-en.gz) for METEOR's paraphrase stage")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval ngram -in FILE.json [-tokenize ptb|none] [-metrics bleu,meteor,rouge,cider] [-meteor-paraphrase paraphrase-en.gz]")
		fmt.Fprintln(stderr, "Without -meteor-paraphrase, METEOR runs without the paraphrase stage, as Meteor 1.5 does when its table is")
		fmt.Fprintln(stderr, "missing: scores sit below COCO's published values wherever a paraphrase would have matched.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	want := map[string]bool{}
	for _, m := range strings.Split(*metrics, ",") {
		m = strings.TrimSpace(strings.ToLower(m))
		if !contains(ngramMetrics, m) {
			return fmt.Errorf("-metrics: unknown metric %q (available: %s)", m, strings.Join(ngramMetrics, ", "))
		}
		want[m] = true
	}
	if *in == "" {
		fs.Usage()
		return fmt.Errorf("-in is required")
	}
	c, err := ngram.ReadCorpus(*in)
	if err != nil {
		return err
	}
	out := ngramOutput{Corpus: map[string]Float{}, Items: map[string]map[string]Float{}}
	switch *tokenize {
	case "ptb":
		c = c.Tokenized()
		out.Tokenized = &ngramTokenized{Cands: map[string]string{}, Refs: map[string][]string{}}
		for _, id := range c.IDs() {
			out.Tokenized.Cands[id] = c.Candidate(id)
			out.Tokenized.Refs[id] = c.References(id)
		}
	case "none":
	default:
		return fmt.Errorf("-tokenize: want ptb or none, got %q", *tokenize)
	}
	for _, id := range c.IDs() {
		out.Items[id] = map[string]Float{}
	}
	set := func(key string, corpus float64, items func(id string) float64) {
		out.Corpus[key] = Float(corpus)
		for id, m := range out.Items {
			m[key] = Float(items(id))
		}
	}
	if want["bleu"] {
		b := ngram.BLEU(c)
		for k := range b.Corpus {
			set(fmt.Sprintf("Bleu_%d", k+1), b.Corpus[k], func(id string) float64 { return b.Items[id][k] })
		}
	}
	if want["meteor"] {
		m, err := ngram.NewMeteor(&ngram.MeteorOptions{ParaphraseTable: *paraphrase})
		if err != nil {
			return err
		}
		cands, refs := map[string]string{}, map[string][]string{}
		for _, id := range c.IDs() {
			cands[id], refs[id] = c.Candidate(id), c.References(id)
		}
		corpus, items, err := m.Corpus(cands, refs)
		if err != nil {
			return err
		}
		set("METEOR", corpus, func(id string) float64 { return items[id] })
	}
	if want["rouge"] {
		r := ngram.ROUGEL(c)
		set("ROUGE_L", r.Corpus, func(id string) float64 { return r.Items[id] })
	}
	if want["cider"] {
		r := ngram.CIDErD(c)
		set("CIDEr", r.Corpus, func(id string) float64 { return r.Items[id] })
	}
	return writeJSON(stdout, out)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
