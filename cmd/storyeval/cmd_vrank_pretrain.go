package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/training"
	vranktrain "github.com/storyeval/storyeval/vrank/train"
)

// vrankPretrainOutput is what vrank pretrain prints: one entry per epoch,
// as vrank train prints them.
type vrankPretrainOutput struct {
	Encoder string             `json:"encoder"`
	Epochs  []vrankEpochOutput `json:"epochs"`
}

func runVrankPretrain(args []string, stdout, stderr io.Writer) error {
	const usageLine = "usage: storyeval vrank pretrain -corpus FILE (-encoder DIR | -resume DIR) -out DIR [flags]"
	fs := newFlagSet("vrank pretrain", stderr)
	corpus := fs.String("corpus", "", "training texts: a {id: story} JSON such as the VIST references (required)")
	valCorpus := fs.String("val-corpus", "", "validation texts in the same format (default: a seeded share of -corpus, see -val-fraction)")
	encoder := fs.String("encoder", "", "BERT folder to start from (config.json, vocab.txt, weights), e.g. sup-simcse-bert-base-uncased")
	tf := addTrainFlags(fs, trainDefaults{epochs: 3, batch: 8, lr: 5e-5, valFraction: 0.05, item: "texts",
		outHelp:         "folder to write the pre-trained encoder to (required; then vrank train -encoder OUT)",
		seedHelp:        "seed of the validation split, shuffling, masking, dropout and a new head",
		valFractionHelp: "share of -corpus held out for validation when no -val-corpus is given (0: none)"})
	maskProb := fs.Float64("mask-prob", 0.15, "share of the non-special tokens selected (80 % [MASK], 10 % random, 10 % unchanged)")
	maxLength := fs.Int("max-length", 0, "longest text in tokens, [CLS] and [SEP] included; longer texts are truncated (0: the model's positions)")
	dropout := fs.Float64("dropout", 0.1, "BERT's dropout during training (0: none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageLine)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *corpus == "" || *tf.out == "" || (*encoder == "") == (*tf.resume == "") {
		fs.Usage()
		return errors.New("give -corpus, -out and exactly one of -encoder or -resume")
	}
	if *tf.epochs <= 0 || *tf.batch <= 0 || *tf.lr <= 0 || *maskProb <= 0 || *maskProb >= 1 || *maxLength < 0 || *dropout < 0 || *dropout >= 1 || *tf.valFraction < 0 || *tf.valFraction >= 1 {
		return errors.New("-epochs, -batch and -lr must be positive; -mask-prob in (0, 1); -dropout and -val-fraction in [0, 1); -max-length not negative")
	}
	dev, err := tf.openDevice()
	if err != nil {
		return err
	}
	defer dev.Close()
	train, err := vranktrain.LoadCorpusTexts(*corpus, limits.Limits{MaxBytes: maxInputBytes})
	if err != nil {
		return err
	}
	var val []string
	if *valCorpus != "" {
		if val, err = vranktrain.LoadCorpusTexts(*valCorpus, limits.Limits{MaxBytes: maxInputBytes}); err != nil {
			return err
		}
	}
	opts := vranktrain.PretrainOptions{Epochs: *tf.epochs, BatchSize: *tf.batch, LearningRate: *tf.lr, MaskProbability: *maskProb, MaxLength: *maxLength,
		Dropout: *dropout, NoDropout: *dropout == 0, Seed: *tf.seed, ValidationFraction: *tf.valFraction, CheckpointDir: *tf.checkpoints, Backend: dev.Backend}
	if *tf.valFraction == 0 {
		opts.ValidationFraction = -1
	}
	var pt *vranktrain.Pretrainer
	if *tf.resume != "" {
		pt, err = vranktrain.ResumePretrainer(*tf.resume, opts)
	} else {
		pt, err = vranktrain.NewPretrainer(*encoder, opts)
	}
	if err != nil {
		return err
	}
	var hist []vranktrain.PretrainEpoch
	ctx, stop := interruptContext()
	defer stop()
	err = runTraining(stderr, tf.perEpoch(len(train), val != nil)*max(0, *tf.epochs-pt.Epoch()), "texts", func(bar *epochBar) (err error) {
		pt.SetProgress(func(p training.Progress) { bar.stepEpoch(p.Epoch, p.Epochs, p.Done, p.Total, p.Loss) })
		hist, err = pt.Train(ctx, train, val)
		return err
	})
	if err != nil {
		return err
	}
	if err := pt.SaveEncoder(*tf.out); err != nil {
		return err
	}
	res := vrankPretrainOutput{Encoder: *tf.out, Epochs: []vrankEpochOutput{}}
	for _, h := range hist {
		res.Epochs = append(res.Epochs, vrankEpochOutput{Epoch: h.Epoch, TrainLoss: Float(h.TrainLoss), ValidationLoss: Float(h.ValidationLoss),
			ValidationAccuracy: Float(h.ValidationAccuracy), Checkpoint: h.Checkpoint})
	}
	return writeJSON(stdout, res)
}
