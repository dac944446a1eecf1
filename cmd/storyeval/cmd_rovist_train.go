package main

import (
	"errors"
	"fmt"
	"io"

	rovisttrain "github.com/storyeval/storyeval/rovist/train"
)

const rovistTrainUsage = "usage: storyeval rovist train vg -pairs FILE -crops DIR -glove FILE (-init FILE|DIR | -resume DIR) -out DIR [flags]"

func runRovistTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rovist train vg", stderr)
	var r rovisttrain.VGRun
	fs.StringVar(&r.Pairs, "pairs", "", "region–phrase pairs: a CSV with columns image_id, bbox, noun_phrase (Flickr30k Entities layout; required)")
	fs.StringVar(&r.Crops, "crops", "", "folder of the region crops {image_id}_{bbox}.jpg (required)")
	fs.StringVar(&r.GloVe, "glove", "", "GloVe 300-d text file, e.g. glove.6B.300d.txt[.gz] (required)")
	fs.StringVar(&r.Stories, "stories", "", "train only on the pairs of these stories' images (story JSON with images; default: every pair not used for validation)")
	fs.StringVar(&r.ValidStories, "valid-stories", "", "validate on the pairs of these stories' images (default: a seeded share of the pairs, see -val-fraction)")
	fs.StringVar(&r.Init, "init", "", "starting checkpoint: r2p_model_epoch2.pth.tar, or a ViT model file or folder (google/vit-base-patch16-224-in21k)")
	fs.StringVar(&r.ViT, "vit", "", "folder with the ViT's config.json and preprocessor_config.json (default: the -init folder, or the folder of the -init file)")
	tf := addTrainFlags(fs, trainFlags{epochs: 50, batch: 64, lr: 5e-5, valFraction: 0.1, seed: 1, item: "pairs"},
		"training epochs (early stopping after -early-stop epochs without a better validation loss)",
		"folder to write the trained model to (required); score with it as rovist -grounding-model OUT/model.safetensors -vit OUT",
		"seed of the validation split, the shuffling and new heads",
		"share of the pairs held out for validation when no -valid-stories is given (0: none)")
	o := &r.Options
	fs.IntVar(&o.EarlyStop, "early-stop", 10, "epochs without a lower validation loss before stopping (0: never)")
	fs.Float64Var(&o.LRDecay, "lr-decay", 0.95, "learning-rate factor per epoch")
	fs.Float64Var(&o.WeightDecay, "weight-decay", 1e-5, "Adam weight decay (L2; 0: none)")
	fs.BoolVar(&o.LearnTemperature, "learn-temperature", false, "let Adam update the loss temperature τ (the original leaves it at 1)")
	setUsage(fs, rovistTrainUsage)
	if err := tf.parse(fs, args, "init", "pairs", "crops", "glove"); err != nil {
		return err
	}
	if tf.epochs <= 0 || tf.batch <= 0 || !(tf.lr > 0) || !(o.LRDecay > 0) || !(o.WeightDecay >= 0) || tf.valFraction < 0 || tf.valFraction >= 1 {
		return errors.New("-epochs, -batch, -lr and -lr-decay must be positive, -weight-decay not negative, -val-fraction in [0, 1)")
	}
	r.Out, r.Resume, r.ValidationFraction = tf.out, tf.resume, tf.valFraction
	o.Epochs, o.BatchSize, o.LearningRate, o.Seed, o.CheckpointDir = tf.epochs, tf.batch, tf.lr, tf.seed, tf.checkpoints
	o.NoWeightDecay, o.EarlyStop = o.WeightDecay == 0, noneIfZero(o.EarlyStop)
	rep, err := train(stdout, stderr, tf, &o.Backend, &o.Progress, r.Run, nil)
	for _, h := range rep.Epochs {
		fmt.Fprintf(stderr, "epoch %d/%d: lr %.3g, train loss %.5g, validation loss %.5g\n", h.Epoch, tf.epochs, h.LearningRate, h.TrainLoss, h.ValidationLoss)
	}
	return err
}
