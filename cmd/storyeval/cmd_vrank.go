package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/training"
	"github.com/storyeval/storyeval/vrank"
	vranktrain "github.com/storyeval/storyeval/vrank/train"
)

func init() {
	register(command{
		name:    "vrank",
		summary: "train the Vrank story-pair ranker on a VHED-format CSV (vrank train), predict ranking gaps (vrank predict), or MLM-pretrain its encoder (vrank pretrain)",
		run:     runVrank,
	})
}

func runVrank(args []string, stdout, stderr io.Writer) error {
	return runAction(args, stdout, stderr, []string{
		"usage: storyeval vrank train -csv FILE (-encoder DIR | -resume DIR) -out DIR [flags]",
		"       storyeval vrank predict -model DIR -csv FILE",
		"       storyeval vrank pretrain -corpus FILE (-encoder DIR | -resume DIR) -out DIR [flags]",
	}, action{"train", runVrankTrain}, action{"predict", runVrankPredict}, action{"pretrain", runVrankPretrain})
}

// vrankTrainOutput is what vrank train prints: one entry per epoch.
type vrankTrainOutput struct {
	// Model is -out, where the best epoch's model was saved.
	Model string `json:"model"`
	// BestEpoch is the epoch of highest validation accuracy (absent
	// without validation pairs, when Model is the last epoch's).
	BestEpoch int                `json:"best_epoch,omitempty"`
	Epochs    []vrankEpochOutput `json:"epochs"`
}

type vrankEpochOutput struct {
	Epoch              int    `json:"epoch"`
	TrainLoss          Float  `json:"train_loss"`
	ValidationLoss     Float  `json:"validation_loss"`
	ValidationAccuracy Float  `json:"validation_accuracy"`
	Checkpoint         string `json:"checkpoint,omitempty"`
}

func runVrankTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vrank train", stderr)
	csvPath := fs.String("csv", "", "training pairs: a CSV with the VHED columns sent1, sent2, label (required)")
	valPath := fs.String("val-csv", "", "validation pairs in the same format (default: a seeded share of -csv, see -val-fraction)")
	encoder := fs.String("encoder", "", "pretrained BERT/SimCSE model folder to start from, e.g. sup-simcse-bert-base-uncased")
	tf := addTrainFlags(fs, trainDefaults{epochs: 30, batch: 32, lr: 2e-5, valFraction: 0.1, seed: 7777, item: "pairs",
		outHelp:         "folder to write the trained model to, the epoch of highest validation accuracy (required)",
		seedHelp:        "seed of the validation split, shuffling, dropout and the new head",
		valFractionHelp: "share of -csv held out for validation when no -val-csv is given (0: none)"})
	dropout := fs.Float64("dropout", 0.1, "dropout on the CLS feature during training (0: none)")
	encDropout := fs.Float64("encoder-dropout", 0.1, "dropout inside the encoder during training, BERT's hidden and attention dropout in train mode as the paper fine-tuned (0: none)")
	noAugment := fs.Bool("no-augment", false, "do not add each pair swapped with the negated gap")
	feature := fs.String("feature", "cls", "head input: cls (raw CLS state) or pooler (BERT's pooler output)")
	encoding := fs.String("encoding", "joined", "pair input: joined (\"story1 [SEP] story2\", token types 0) or pair (standard pair encoding)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval vrank train -csv FILE (-encoder DIR | -resume DIR) -out DIR [flags]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *csvPath == "" || *tf.out == "" || (*encoder == "") == (*tf.resume == "") {
		fs.Usage()
		return errors.New("give -csv, -out and exactly one of -encoder or -resume")
	}
	dev, err := tf.openDevice()
	if err != nil {
		return err
	}
	defer dev.Close()
	train, err := vranktrain.LoadPairs(*csvPath, limits.Limits{})
	if err != nil {
		return err
	}
	var val []vranktrain.Pair
	if *valPath != "" {
		if val, err = vranktrain.LoadPairs(*valPath, limits.Limits{}); err != nil {
			return err
		}
	}
	opts := vranktrain.Options{Epochs: *tf.epochs, BatchSize: *tf.batch, LearningRate: *tf.lr, Dropout: *dropout, NoDropout: *dropout == 0, EncoderDropout: *encDropout, NoEncoderDropout: *encDropout == 0,
		NoAugment: *noAugment, Seed: *tf.seed, ValidationFraction: *tf.valFraction, CheckpointDir: *tf.checkpoints, Backend: dev.Backend}
	if *tf.valFraction == 0 {
		opts.ValidationFraction = -1
	}
	if *tf.epochs <= 0 || *tf.batch <= 0 || *tf.lr <= 0 {
		return errors.New("-epochs, -batch and -lr must be positive")
	}
	var tr *vranktrain.Trainer
	if *tf.resume != "" {
		tr, err = vranktrain.ResumeTrainer(*tf.resume, opts)
	} else {
		cfg := vrank.Config{}
		if cfg.Feature, err = vrank.ParseFeature(*feature); err != nil {
			return fmt.Errorf("-feature: %w", err)
		}
		if cfg.Encoding, err = vrank.ParseInputEncoding(*encoding); err != nil {
			return fmt.Errorf("-encoding: %w", err)
		}
		var m *vrank.Model
		if m, err = vrank.NewFromEncoder(*encoder, cfg, *tf.seed); err == nil {
			tr, err = vranktrain.NewTrainer(m, opts)
		}
	}
	if err != nil {
		return err
	}
	// One bar over all remaining epochs; a line per finished epoch.
	perEpoch := tf.perEpoch(len(train), val != nil)
	if !*noAugment {
		perEpoch *= 2
	}
	var hist []vranktrain.EpochResult
	ctx, stop := interruptContext()
	defer stop()
	err = runTraining(stderr, perEpoch*max(0, *tf.epochs-tr.Epoch()), "pairs", func(bar *epochBar) (err error) {
		tr.SetProgress(func(p training.Progress) {
			if bar.step(p.Done, p.Total) {
				fmt.Fprintf(stderr, "epoch %d/%d: train loss %.5g, %.1f pairs/s\n", p.Epoch, p.Epochs, p.Loss, p.ExamplesPerSecond)
			}
		})
		hist, err = tr.Train(ctx, train, val)
		return err
	})
	if err != nil {
		return err
	}
	// The output is the epoch of highest validation accuracy, as the paper
	// keeps (the last epoch without validation pairs).
	m, err := tr.BestModel()
	if err != nil {
		return err
	}
	if err := m.Save(*tf.out); err != nil {
		return err
	}
	res := vrankTrainOutput{Model: *tf.out}
	if best, ok := tr.Best(); ok {
		res.BestEpoch = best.Epoch
	}
	for _, h := range hist {
		res.Epochs = append(res.Epochs, vrankEpochOutput{Epoch: h.Epoch, TrainLoss: Float(h.TrainLoss),
			ValidationLoss: Float(h.ValidationLoss), ValidationAccuracy: Float(h.ValidationAccuracy), Checkpoint: h.Checkpoint})
	}
	return writeJSON(stdout, res)
}
