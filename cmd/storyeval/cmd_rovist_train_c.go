package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/training"
)

// rovistTrainCOutput is what rovist train c prints: one entry per epoch.
type rovistTrainCOutput struct {
	Model  string                `json:"model"`
	Epochs []rovistTrainCEpochJS `json:"epochs"`
}

type rovistTrainCEpochJS struct {
	Epoch              int    `json:"epoch"`
	LearningRate       Float  `json:"learning_rate"`
	TrainLoss          Float  `json:"train_loss"`
	TrainAccuracy      Float  `json:"train_accuracy"`
	ValidationLoss     Float  `json:"validation_loss"`
	ValidationAccuracy Float  `json:"validation_accuracy"`
	Checkpoint         string `json:"checkpoint,omitempty"`
}

func runRovistTrainC(args []string, stdout, stderr io.Writer) error {
	const usageLine = "usage: storyeval rovist train c -stories FILE (-albert DIR [-checkpoint FILE] | -resume DIR) -out DIR [flags]"
	fs := newFlagSet("rovist train c", stderr)
	storiesPath := fs.String("stories", "", "training stories: {id: story} or RoViST's {id: {\"story\", \"images\"}} JSON (required)")
	valPath := fs.String("val-stories", "", "validation stories in the same format (default: a seeded share of the training pairs, see -val-fraction)")
	albertDir := fs.String("albert", "", "ALBERT folder to start from (config.json, spiece.model and, without -checkpoint, its pretrained weights), e.g. albert-large-v1")
	ckptPath := fs.String("checkpoint", "", "classifier checkpoint to continue fine-tuning (e.g. sop_model_epoch4.pth.tar; default: a new head on -albert's weights)")
	tf := addTrainFlags(fs, trainDefaults{epochs: 50, batch: 32, lr: 1e-5, valFraction: 0.1, item: "pairs",
		outHelp:         "folder to write the trained model to (required; score with rovist -coherence-model OUT/" + rovisttrain.CoherenceWeightsFile + " -albert OUT)",
		seedHelp:        "seed of the validation split, shuffling, dropout and a new head",
		valFractionHelp: "share of the training pairs held out for validation when no -val-stories is given (0: none)"})
	weightDecay := fs.Float64("weight-decay", 1e-5, "Adam's L2 weight decay (0: none)")
	lrDecay := fs.Float64("lr-decay", 0.95, "learning-rate factor after every epoch (1: constant)")
	earlyStop := fs.Int("early-stop", 5, "stop after this many epochs without a lower validation loss (0: never)")
	dropout := fs.Float64("dropout", 0.1, "ALBERT's dropout during training (0: none)")
	maxLength := fs.Int("max-length", 0, "longest pair in pieces; longer pairs are truncated (0: the model's 512 positions)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageLine)
		fmt.Fprintln(stderr, "Each two adjacent sentences of a story give a positive pair (in order, label 1) and the swapped pair (label 0).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *storiesPath == "" || *tf.out == "" || (*albertDir == "") == (*tf.resume == "") {
		fs.Usage()
		return errors.New("give -stories, -out and exactly one of -albert or -resume")
	}
	if *tf.epochs <= 0 || *tf.batch <= 0 || *tf.lr <= 0 || *lrDecay <= 0 || *weightDecay < 0 || *earlyStop < 0 || *dropout < 0 || *dropout >= 1 || *maxLength < 0 {
		return errors.New("-epochs, -batch, -lr and -lr-decay must be positive; -weight-decay, -early-stop and -max-length not negative; -dropout in [0, 1)")
	}
	dev, err := tf.openDevice()
	if err != nil {
		return err
	}
	defer dev.Close()
	train, err := rovisttrain.LoadSOPPairs(*storiesPath, limits.Limits{MaxBytes: maxInputBytes})
	if err != nil {
		return err
	}
	if len(train) == 0 {
		return fmt.Errorf("%s: no story has two sentences to make a pair from", *storiesPath)
	}
	var val []rovisttrain.SOPPair
	if *valPath != "" {
		if val, err = rovisttrain.LoadSOPPairs(*valPath, limits.Limits{MaxBytes: maxInputBytes}); err != nil {
			return err
		}
	}
	opts := rovisttrain.CoherenceTrainOptions{Epochs: *tf.epochs, BatchSize: *tf.batch, LearningRate: *tf.lr, WeightDecay: *weightDecay, LRDecay: *lrDecay,
		EarlyStop: *earlyStop, Dropout: *dropout, NoDropout: *dropout == 0, Seed: *tf.seed, ValidationFraction: *tf.valFraction,
		MaxLength: *maxLength, CheckpointDir: *tf.checkpoints, Backend: dev.Backend}
	if *weightDecay == 0 {
		opts.WeightDecay = -1
	}
	if *earlyStop == 0 {
		opts.EarlyStop = -1
	}
	if *tf.valFraction == 0 {
		opts.ValidationFraction = -1
	}
	var tr *rovisttrain.CoherenceTrainer
	if *tf.resume != "" {
		tr, err = rovisttrain.ResumeCoherenceTrainer(*tf.resume, opts)
	} else {
		tr, err = rovisttrain.NewCoherenceTrainer(*ckptPath, *albertDir, opts)
	}
	if err != nil {
		return err
	}
	var hist []rovisttrain.CoherenceEpoch
	ctx, stop := interruptContext()
	defer stop()
	err = runTraining(stderr, tf.perEpoch(len(train), val != nil)*max(0, *tf.epochs-tr.Epoch()), "pairs", func(bar *epochBar) (err error) {
		tr.SetProgress(func(p training.Progress) { bar.stepEpoch(p.Epoch, p.Epochs, p.Done, p.Total, p.Loss) })
		hist, err = tr.Train(ctx, train, val)
		return err
	})
	if err != nil {
		return err
	}
	if err := tr.SaveModel(*tf.out); err != nil {
		return err
	}
	res := rovistTrainCOutput{Model: *tf.out, Epochs: []rovistTrainCEpochJS{}}
	for _, h := range hist {
		res.Epochs = append(res.Epochs, rovistTrainCEpochJS{Epoch: h.Epoch, LearningRate: Float(h.LearningRate), TrainLoss: Float(h.TrainLoss),
			TrainAccuracy: Float(h.TrainAccuracy), ValidationLoss: Float(h.ValidationLoss), ValidationAccuracy: Float(h.ValidationAccuracy), Checkpoint: h.Checkpoint})
	}
	return writeJSON(stdout, res)
}
