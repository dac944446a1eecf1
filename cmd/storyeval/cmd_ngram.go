package main

import (
	"cmp"
	"flag"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/ngram"
)

const corpusFlagUsage = `corpus JSON file {"cands": {id: str}, "refs": {id: [str, ...]}} (required)`

func runNgram(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ngram", stderr)
	in := fs.String("in", "", corpusFlagUsage)
	tokenize := fs.String("tokenize", "ptb", "tokenization before scoring: ptb (as the COCO toolkit) or none")
	metrics := fs.String("metrics", strings.Join(ngram.DefaultMetrics(), ","), "comma-separated metrics to compute: "+strings.Join(ngram.Metrics(), ", "))
	paraphrase := fs.String("meteor-paraphrase", "", "Meteor paraphrase table (paraphrase-en.gz) for METEOR's paraphrase stage")
	task := fs.String("meteor-task", "rank", "Meteor 1.5 task parameter set (-t) for the meteor metric: rank (COCO), adq, hter, util, li or tune")
	norm := fs.String("meteor-norm", "norm", "Meteor 1.5 text preparation for the meteor metric: norm (-norm, COCO), nopunct (-norm -noPunct), lower (-lower) or none")
	weights := fs.String("nltk-weights", "0.25,0.25,0.25,0.25", "nltkbleu's n-gram weights, comma-separated (their number is the highest order)")
	smoothing := fs.Int("nltk-smoothing", 0, "nltkbleu's SmoothingFunction method, 0 (none, NLTK's default) to 7")
	formatFlag(fs)
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
	var opts ngram.EvaluateOptions
	check := func() error {
		var errN, errT, errW, errM error
		opts.Meteor.Normalization, errN = ngram.MeteorNormalizationByName(*norm)
		opts.Meteor.Task, errT = ngram.MeteorTaskByName(*task)
		opts.Meteor.ParaphraseTable = *paraphrase
		opts.NLTKBLEU.Weights, errW = parseList(*weights, parseFloat, "a number")
		opts.NLTKBLEU.Smoothing = ngram.NLTKSmoothing(*smoothing)
		opts.Metrics, errM = ngram.ParseMetrics(*metrics)
		setMemoryTarget(*in)
		return cmp.Or(flagError("meteor-norm", errN), flagError("meteor-task", errT), flagError("nltk-weights", errW),
			errIf(*smoothing < 0 || *smoothing > 7, "-nltk-smoothing: want 0..7, got %d", *smoothing), flagError("metrics", errM),
			errIf(*tokenize != "ptb" && *tokenize != "none", "-tokenize: want ptb or none, got %q", *tokenize))
	}
	return scoreCorpus(fs, args, stdout, check, func(c *ngram.Corpus) (*compare.ScoreTable, error) {
		// Progress by stage: on a large corpus each metric takes a while,
		// and the bar (drawn only on a terminal, after a second) shows
		// which one.
		bar := newProgress(stderr, len(opts.Metrics)+1, "stages")
		defer bar.Finish()
		var tokenized *ngram.Corpus
		if *tokenize == "ptb" {
			c = c.Tokenized()
			tokenized = c
		}
		bar.Add(1)
		opts.Progress = func(string) { bar.Add(1) }
		ev, err := ngram.Evaluate(c, opts)
		if err != nil {
			return nil, err
		}
		return compare.EvaluationTable(ev, tokenized), nil
	})
}

func runSacreBLEU(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sacrebleu", stderr)
	fs.String("in", "", corpusFlagUsage)
	lowercase := fs.Bool("lowercase", false, "lower-case before tokenizing (SacreBLEU -lc)")
	formatFlag(fs)
	setUsage(fs,
		"usage: storyeval sacrebleu [-lowercase] [-format json|csv] -in FILE.json",
		"The corpus score is corpus_bleu; items are sentence_bleu scores (effective order), in the input's order.",
	)
	return scoreCorpus(fs, args, stdout, nil, func(c *ngram.Corpus) (*compare.ScoreTable, error) {
		s, err := ngram.SacreBLEU(c, ngram.SacreBLEUOptions{Lowercase: *lowercase})
		if err != nil {
			return nil, err
		}
		return compare.EvaluationTable(s.Evaluation(c, "BLEU"), nil), nil
	})
}

// scoreCorpus runs the part ngram and sacrebleu share: it parses the
// flags, checks -format, then the command's own flags (check, when not
// nil), loads the -in corpus, scores it and prints the table in -format.
func scoreCorpus(fs *flag.FlagSet, args []string, stdout io.Writer, check func() error, score func(*ngram.Corpus) (*compare.ScoreTable, error)) error {
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	format := fs.Lookup("format").Value.String()
	if err := checkFormat(format); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := requireFlags(fs, "in"); err != nil {
		return err
	}
	c, err := ngram.LoadCorpus(fs.Lookup("in").Value.String(), limits.Limits{})
	if err != nil {
		return err
	}
	t, err := score(c)
	if err != nil {
		return err
	}
	return t.Write(stdout, format == formatCSV)
}

// setMemoryTarget sets the garbage collector's soft memory limit (unless
// GOMEMLIMIT is set) to 24 MiB (runtime, METEOR's word lists) plus five
// times the input's size: CIDEr-D keeps about 3.3 times a random-text
// input live besides 32 MiB of tables, and the peak RSS stays within ten
// times an 11 MB input. Unless GOGC is set, the limit alone paces the
// collector (GOGC=100 cost the 5000-item corpus 7 collections and ~9 % of
// its CPU time).
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
