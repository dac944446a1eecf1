package main

import (
	"flag"
	"fmt"

	"github.com/storyeval/storyeval/ngram"
)

// meteorFlags are the METEOR configuration flags of `storyeval ngram`.
type meteorFlags struct {
	task, norm *string
}

func addMeteorFlags(fs *flag.FlagSet) meteorFlags {
	return meteorFlags{
		task: fs.String("meteor-task", "rank", "Meteor 1.5 task parameter set (-t) for the meteor metric: rank (COCO), adq, hter, util, li or tune"),
		norm: fs.String("meteor-norm", "norm", "Meteor 1.5 text preparation for the meteor metric: norm (-norm, COCO), nopunct (-norm -noPunct), lower (-lower) or none"),
	}
}

func (f meteorFlags) options(paraphrase string) (ngram.MeteorOptions, error) {
	norm, err := ngram.MeteorNormalizationByName(*f.norm)
	if err != nil {
		return ngram.MeteorOptions{}, fmt.Errorf("-meteor-norm: %w", err)
	}
	task, err := ngram.MeteorTaskByName(*f.task)
	if err != nil {
		return ngram.MeteorOptions{}, fmt.Errorf("-meteor-task: %w", err)
	}
	return ngram.MeteorOptions{Task: task, Normalization: norm, ParaphraseTable: paraphrase}, nil
}

// nltkBLEUFlags are the NLTK BLEU flags of `storyeval ngram`.
type nltkBLEUFlags struct {
	weights   *string
	smoothing *int
}

func addNLTKBLEUFlags(fs *flag.FlagSet) nltkBLEUFlags {
	return nltkBLEUFlags{
		weights:   fs.String("nltk-weights", "0.25,0.25,0.25,0.25", "nltkbleu's n-gram weights, comma-separated (their number is the highest order)"),
		smoothing: fs.Int("nltk-smoothing", 0, "nltkbleu's SmoothingFunction method, 0 (none, NLTK's default) to 7"),
	}
}

func (f nltkBLEUFlags) options() (ngram.NLTKBLEUOptions, error) {
	var opts ngram.NLTKBLEUOptions
	var err error
	if opts.Weights, err = parseList(*f.weights, parseFloat, "a number"); err != nil {
		return opts, fmt.Errorf("-nltk-weights: %w", err)
	}
	if *f.smoothing < 0 || *f.smoothing > 7 {
		return opts, fmt.Errorf("-nltk-smoothing: want 0..7, got %d", *f.smoothing)
	}
	opts.Smoothing = ngram.NLTKSmoothing(*f.smoothing)
	return opts, nil
}
