package main

import (
	"errors"
	"io"

	"github.com/storyeval/storyeval/limits"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
)

func runRovistTrainC(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rovist train c", stderr)
	r := rovisttrain.CoherenceRun{Limits: limits.Limits{MaxBytes: maxInputBytes}}
	fs.StringVar(&r.Stories, "stories", "", "training stories: {id: story} or RoViST's {id: {\"story\", \"images\"}} JSON (required)")
	fs.StringVar(&r.ValStories, "val-stories", "", "validation stories in the same format (default: a seeded share of the training pairs, see -val-fraction)")
	fs.StringVar(&r.ALBERT, "albert", "", "ALBERT folder to start from (config.json, spiece.model and, without -checkpoint, its pretrained weights), e.g. albert-large-v1")
	fs.StringVar(&r.Checkpoint, "checkpoint", "", "classifier checkpoint to continue fine-tuning (e.g. sop_model_epoch4.pth.tar; default: a new head on -albert's weights)")
	tf := addTrainFlags(fs, trainFlags{epochs: 50, batch: 32, lr: 1e-5, valFraction: 0.1, item: "pairs"}, "",
		"folder to write the trained model to (required; score with rovist -coherence-model OUT/"+rovisttrain.CoherenceWeightsFile+" -albert OUT)",
		"seed of the validation split, shuffling, dropout and a new head",
		"share of the training pairs held out for validation when no -val-stories is given (0: none)")
	o := &r.Options
	fs.Float64Var(&o.WeightDecay, "weight-decay", 1e-5, "Adam's L2 weight decay (0: none)")
	fs.Float64Var(&o.LRDecay, "lr-decay", 0.95, "learning-rate factor after every epoch (1: constant)")
	fs.IntVar(&o.EarlyStop, "early-stop", 5, "stop after this many epochs without a lower validation loss (0: never)")
	fs.Float64Var(&o.Dropout, "dropout", 0.1, "ALBERT's dropout during training (0: none)")
	fs.IntVar(&o.MaxLength, "max-length", 0, "longest pair in pieces; longer pairs are truncated (0: the model's 512 positions)")
	setUsage(fs, "usage: storyeval rovist train c -stories FILE (-albert DIR [-checkpoint FILE] | -resume DIR) -out DIR [flags]",
		"Each two adjacent sentences of a story give a positive pair (in order, label 1) and the swapped pair (label 0).")
	if err := tf.parse(fs, args, "albert", "stories"); err != nil {
		return err
	}
	if tf.epochs <= 0 || tf.batch <= 0 || tf.lr <= 0 || o.LRDecay <= 0 || o.WeightDecay < 0 || o.EarlyStop < 0 || o.Dropout < 0 || o.Dropout >= 1 || o.MaxLength < 0 {
		return errors.New("-epochs, -batch, -lr and -lr-decay must be positive; -weight-decay, -early-stop and -max-length not negative; -dropout in [0, 1)")
	}
	r.Out, r.Resume, o.NoDropout = tf.out, tf.resume, o.Dropout == 0
	o.Epochs, o.BatchSize, o.LearningRate, o.Seed, o.CheckpointDir = tf.epochs, tf.batch, tf.lr, tf.seed, tf.checkpoints
	o.WeightDecay, o.EarlyStop, o.ValidationFraction = noneIfZero(o.WeightDecay), noneIfZero(o.EarlyStop), noneIfZero(tf.valFraction)
	_, err := train(stdout, stderr, tf, &o.Backend, &o.Progress, r.Run, trainLossLine)
	return err
}
