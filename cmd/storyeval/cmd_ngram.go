package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/ngram"
)

func init() {
	register(command{
		name:    "ngram",
		summary: "COCO caption metrics (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D), NLTK BLEU and VIST METEOR of a corpus file",
		run:     runNgram,
	})
}

func runNgram(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ngram", stderr)
	in := fs.String("in", "", `corpus JSON file {"cands": {id: str}, "refs": {id: [str, ...]}} (required)`)
	tokenize := fs.String("tokenize", "ptb", "tokenization before scoring: ptb (as the COCO toolkit) or none")
	metrics := fs.String("metrics", strings.Join(ngram.DefaultMetrics(), ","), "comma-separated metrics to compute: "+strings.Join(ngram.Metrics(), ", "))
	paraphrase := fs.String("meteor-paraphrase", "", "Meteor paraphrase table (paraphrase-en.gz) for METEOR's paraphrase stage")
	meteorFlags := addMeteorFlags(fs)
	nltkFlags := addNLTKBLEUFlags(fs)
	format := formatFlag(fs)
	setUsage(fs,
		"usage: storyeval ngram [-tokenize ptb|none] [-metrics bleu,meteor,rouge,cider,nltkbleu,meteor-vist] [-meteor-paraphrase paraphrase-en.gz] [-meteor-task rank|adq|hter|util|li|tune] [-meteor-norm norm|nopunct|lower|none] [-nltk-weights W1,W2,...] [-nltk-smoothing 0..7] [-format json|csv] -in FILE.json",
		"Prints the corpus scores and each item's scores in the input's order; with -tokenize ptb the JSON",
		"output also holds the tokenized text. Without -meteor-paraphrase, METEOR runs without the paraphrase",
		"stage, as Meteor 1.5 does when its table is missing: scores sit below COCO's published values",
		"wherever a paraphrase would have matched.",
		"nltkbleu is NLTK 3.8's sentence_bleu per item and corpus_bleu for the corpus, on the words of each",
		"text split at white space as Python's str.split() (after -tokenize). meteor-vist is METEOR as the",
		"AREL/MSR VIST scripts run it (-t hter without -norm, each reference scored on its own, the item's",
		"best; the corpus score is the mean of the items'); give -tokenize none to score the text as given.",
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	meteorOpts, err := meteorFlags.options(*paraphrase)
	if err != nil {
		return err
	}
	nltkOpts, err := nltkFlags.options()
	if err != nil {
		return err
	}
	var want []string
	for _, m := range strings.Split(*metrics, ",") {
		m = strings.TrimSpace(strings.ToLower(m))
		if !slices.Contains(ngram.Metrics(), m) {
			return fmt.Errorf("-metrics: unknown metric %q (available: %s)", m, strings.Join(ngram.Metrics(), ", "))
		}
		if !slices.Contains(want, m) {
			want = append(want, m)
		}
	}
	if *tokenize != "ptb" && *tokenize != "none" {
		return fmt.Errorf("-tokenize: want ptb or none, got %q", *tokenize)
	}
	if err := requireFlags(fs, "in"); err != nil {
		return err
	}
	setMemoryTarget(*in)
	c, err := ngram.LoadCorpus(*in, limits.Limits{})
	if err != nil {
		return err
	}
	// Progress by stage: on a large corpus each metric takes a while, and
	// the bar (drawn only on a terminal, after a second) shows which one.
	bar := newProgress(stderr, len(want)+1, "stages")
	defer bar.Finish()
	if *tokenize == "ptb" {
		c = c.Tokenized()
	}
	bar.Add(1)
	ev, err := ngram.Evaluate(c, ngram.EvaluateOptions{Metrics: want, Meteor: meteorOpts, NLTKBLEU: nltkOpts,
		Progress: func(string) { bar.Add(1) }})
	if err != nil {
		return err
	}
	t := &scoreTable{metrics: ev.Columns, corpus: ev.Corpus, ids: ev.IDs, items: ev.Items}
	if *tokenize == "ptb" {
		t.extraJSON = func(w io.Writer) error { return writeNgramTokenized(w, c) }
	}
	return t.write(stdout, *format)
}

// writeNgramTokenized writes the "tokenized" member: the PTB-tokenized
// candidates and references the metrics scored, in input order. It writes
// as it goes, so a large corpus is not held twice.
func writeNgramTokenized(w io.Writer, c *ngram.Corpus) error {
	buf := []byte(",\n  \"tokenized\": {\n    \"cands\": {")
	flush := func() error {
		if len(buf) < 1<<15 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	for i, id := range c.IDs() {
		if err := flush(); err != nil {
			return err
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n      "...)
		buf = appendJSONString(buf, id)
		buf = append(buf, ": "...)
		buf = appendJSONString(buf, c.Candidate(id))
	}
	buf = append(buf, "\n    },\n    \"refs\": {"...)
	for i, id := range c.IDs() {
		if err := flush(); err != nil {
			return err
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n      "...)
		buf = appendJSONString(buf, id)
		buf = append(buf, ": ["...)
		for j, r := range c.References(id) {
			if j > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendJSONString(buf, r)
		}
		buf = append(buf, ']')
	}
	buf = append(buf, "\n    }\n  }"...)
	_, err := w.Write(buf)
	return err
}

// setMemoryTarget sets the garbage collector's soft memory limit to 24 MiB
// (the runtime's own, METEOR's word lists) plus five times the input's
// size (unless GOMEMLIMIT is set), so that on a large corpus the collector
// runs before garbage piles up to twice the live data. CIDEr-D, the
// largest, keeps about 3.3 times the input live besides its 32 MiB of
// document-frequency tables (a random-text corpus, where nearly every
// n-gram is new), so the limit leaves room for it at 50 MB (4.2 times the
// input live at the peak) and holds the peak RSS, the limit plus some 18 MB
// of mapped program, within ten times an 11 MB input (the earlier floor
// of 192 MiB alone was 17 times such an input). Unless GOGC is set, the
// limit alone then paces the collector: below it a short run has no use
// for collecting early (GOGC=100 cost the 5000-item corpus 7 collections
// and ~9% of its CPU time).
func setMemoryTarget(path string) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		debug.SetMemoryLimit(24<<20 + 5*st.Size())
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(-1)
		}
	}
}
