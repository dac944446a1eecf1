package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/training"
	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vrank"
	vranktrain "github.com/storyeval/storyeval/vrank/train"
)

func runVrank(args []string, stdout, stderr io.Writer) error {
	return runAction(args, stdout, stderr, []string{
		"usage: storyeval vrank train -csv FILE (-encoder DIR | -resume DIR) -out DIR [flags]",
		"       storyeval vrank predict -model DIR -csv FILE",
		"       storyeval vrank pretrain -corpus FILE (-encoder DIR | -resume DIR) -out DIR [flags]",
	}, action{"train", runVrankTrain}, action{"predict", runVrankPredict}, action{"pretrain", runVrankPretrain})
}

func runVrankTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vrank train", stderr)
	var r vranktrain.TrainRun
	fs.StringVar(&r.CSV, "csv", "", "training pairs: a CSV with the VHED columns sent1, sent2, label (required)")
	fs.StringVar(&r.ValCSV, "val-csv", "", "validation pairs in the same format (default: a seeded share of -csv, see -val-fraction)")
	fs.StringVar(&r.Encoder, "encoder", "", "pretrained BERT/SimCSE model folder to start from, e.g. sup-simcse-bert-base-uncased")
	tf := addTrainFlags(fs, trainFlags{epochs: 30, batch: 32, lr: 2e-5, valFraction: 0.1, seed: 7777, item: "pairs"}, "",
		"folder to write the trained model to, the epoch of highest validation accuracy (required)",
		"seed of the validation split, shuffling, dropout and the new head",
		"share of -csv held out for validation when no -val-csv is given (0: none)")
	o := &r.Options
	fs.Float64Var(&o.Dropout, "dropout", 0.1, "dropout on the CLS feature during training (0: none)")
	fs.Float64Var(&o.EncoderDropout, "encoder-dropout", 0.1, "dropout inside the encoder during training, BERT's hidden and attention dropout in train mode as the paper fine-tuned (0: none)")
	fs.BoolVar(&o.NoAugment, "no-augment", false, "do not add each pair swapped with the negated gap")
	feature := fs.String("feature", "cls", "head input: cls (raw CLS state) or pooler (BERT's pooler output)")
	encoding := fs.String("encoding", "joined", "pair input: joined (\"story1 [SEP] story2\", token types 0) or pair (standard pair encoding)")
	setUsage(fs, "usage: storyeval vrank train -csv FILE (-encoder DIR | -resume DIR) -out DIR [flags]")
	if err := tf.parse(fs, args, "encoder", "csv"); err != nil {
		return err
	}
	if tf.epochs <= 0 || tf.batch <= 0 || tf.lr <= 0 {
		return errors.New("-epochs, -batch and -lr must be positive")
	}
	var err error
	if r.Config.Feature, err = vrank.ParseFeature(*feature); err != nil && tf.resume == "" {
		return fmt.Errorf("-feature: %w", err)
	}
	if r.Config.Encoding, err = vrank.ParseInputEncoding(*encoding); err != nil && tf.resume == "" {
		return fmt.Errorf("-encoding: %w", err)
	}
	r.Out, r.Resume, o.NoDropout, o.NoEncoderDropout = tf.out, tf.resume, o.Dropout == 0, o.EncoderDropout == 0
	o.Epochs, o.BatchSize, o.LearningRate, o.Seed, o.CheckpointDir = tf.epochs, tf.batch, tf.lr, tf.seed, tf.checkpoints
	o.ValidationFraction = noneIfZero(tf.valFraction)
	_, err = train(stdout, stderr, tf, &o.Backend, &o.Progress, r.Run, func(w io.Writer, p training.Progress) {
		fmt.Fprintf(w, "epoch %d/%d: train loss %.5g, %.1f pairs/s\n", p.Epoch, p.Epochs, p.Loss, p.ExamplesPerSecond)
	})
	return err
}

func runVrankPretrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vrank pretrain", stderr)
	r := vranktrain.PretrainRun{Limits: limits.Limits{MaxBytes: maxInputBytes}}
	fs.StringVar(&r.Corpus, "corpus", "", "training texts: a {id: story} JSON such as the VIST references (required)")
	fs.StringVar(&r.ValCorpus, "val-corpus", "", "validation texts in the same format (default: a seeded share of -corpus, see -val-fraction)")
	fs.StringVar(&r.Encoder, "encoder", "", "BERT folder to start from (config.json, vocab.txt, weights), e.g. sup-simcse-bert-base-uncased")
	tf := addTrainFlags(fs, trainFlags{epochs: 3, batch: 8, lr: 5e-5, valFraction: 0.05, item: "texts"}, "",
		"folder to write the pre-trained encoder to (required; then vrank train -encoder OUT)",
		"seed of the validation split, shuffling, masking, dropout and a new head",
		"share of -corpus held out for validation when no -val-corpus is given (0: none)")
	o := &r.Options
	fs.Float64Var(&o.MaskProbability, "mask-prob", 0.15, "share of the non-special tokens selected (80 % [MASK], 10 % random, 10 % unchanged)")
	fs.IntVar(&o.MaxLength, "max-length", 0, "longest text in tokens, [CLS] and [SEP] included; longer texts are truncated (0: the model's positions)")
	fs.Float64Var(&o.Dropout, "dropout", 0.1, "BERT's dropout during training (0: none)")
	setUsage(fs, "usage: storyeval vrank pretrain -corpus FILE (-encoder DIR | -resume DIR) -out DIR [flags]")
	if err := tf.parse(fs, args, "encoder", "corpus"); err != nil {
		return err
	}
	if tf.epochs <= 0 || tf.batch <= 0 || tf.lr <= 0 || o.MaskProbability <= 0 || o.MaskProbability >= 1 || o.MaxLength < 0 || o.Dropout < 0 || o.Dropout >= 1 || tf.valFraction < 0 || tf.valFraction >= 1 {
		return errors.New("-epochs, -batch and -lr must be positive; -mask-prob in (0, 1); -dropout and -val-fraction in [0, 1); -max-length not negative")
	}
	r.Out, r.Resume, o.NoDropout, o.ValidationFraction = tf.out, tf.resume, o.Dropout == 0, noneIfZero(tf.valFraction)
	o.Epochs, o.BatchSize, o.LearningRate, o.Seed, o.CheckpointDir = tf.epochs, tf.batch, tf.lr, tf.seed, tf.checkpoints
	_, err := train(stdout, stderr, tf, &o.Backend, &o.Progress, r.Run, trainLossLine)
	return err
}

func runVrankPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vrank predict", stderr)
	dir := fs.String("model", "", "trained Vrank model folder (required)")
	csvPath := fs.String("csv", "", "story pairs: a CSV (or .csv.gz) with columns sent1 and sent2, other columns ignored (required)")
	dev := addDeviceFlag(fs)
	setUsage(fs, "usage: storyeval vrank predict -model DIR -csv FILE [-device cpu|cuda[:N]]",
		"prints the predicted ranking gap of each pair, in input order (negative: story 1 is better),",
		"as a JSON array written as the pairs are predicted, chunk by chunk")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" || *csvPath == "" {
		fs.Usage()
		return errors.New("give -model and -csv")
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	r, err := vhed.OpenReader(*csvPath, vhed.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}, StoriesOnly: true})
	if err != nil {
		return err
	}
	defer r.Close()
	m, err := vrank.Load(*dir, d.Options)
	if err != nil {
		return err
	}
	defer m.Close()
	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr, -1, "pairs")
	defer prog.Finish()
	next := func() (string, string, error) { p, err := r.Next(); return p.Story1, p.Story2, err }
	return m.WritePredictionsJSON(ctx, next, stdout, vrank.StreamOptions{Name: *csvPath, Progress: prog.Set})
}
