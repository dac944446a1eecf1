package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/rovist"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/training"
)

// rovistTrainOutput is what rovist train vg prints.
type rovistTrainOutput struct {
	Model       string                   `json:"model"`
	Temperature Float                    `json:"temperature"`
	Epochs      []rovistTrainEpochOutput `json:"epochs"`
}

type rovistTrainEpochOutput struct {
	Epoch          int    `json:"epoch"`
	LearningRate   Float  `json:"learning_rate"`
	TrainLoss      Float  `json:"train_loss"`
	ValidationLoss Float  `json:"validation_loss"`
	Best           bool   `json:"best"`
	Checkpoint     string `json:"checkpoint,omitempty"`
}

const rovistTrainUsage = "usage: storyeval rovist train vg -pairs FILE -crops DIR -glove FILE (-init FILE|DIR | -resume DIR) -out DIR [flags]"

func runRovistTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rovist train vg", stderr)
	pairsPath := fs.String("pairs", "", "region–phrase pairs: a CSV with columns image_id, bbox, noun_phrase (Flickr30k Entities layout; required)")
	crops := fs.String("crops", "", "folder of the region crops {image_id}_{bbox}.jpg (required)")
	glovePath := fs.String("glove", "", "GloVe 300-d text file, e.g. glove.6B.300d.txt[.gz] (required)")
	storiesPath := fs.String("stories", "", "train only on the pairs of these stories' images (story JSON with images; default: every pair not used for validation)")
	validPath := fs.String("valid-stories", "", "validate on the pairs of these stories' images (default: a seeded share of the pairs, see -val-fraction)")
	initPath := fs.String("init", "", "starting checkpoint: r2p_model_epoch2.pth.tar, or a ViT model file or folder (google/vit-base-patch16-224-in21k)")
	vitDir := fs.String("vit", "", "folder with the ViT's config.json and preprocessor_config.json (default: the -init folder, or the folder of the -init file)")
	tf := addTrainFlags(fs, trainDefaults{epochs: 50, batch: 64, lr: 5e-5, valFraction: 0.1, seed: 1, item: "pairs",
		outHelp:         "folder to write the trained model to (required); score with it as rovist -grounding-model OUT/model.safetensors -vit OUT",
		epochsHelp:      "training epochs (early stopping after -early-stop epochs without a better validation loss)",
		seedHelp:        "seed of the validation split, the shuffling and new heads",
		valFractionHelp: "share of the pairs held out for validation when no -valid-stories is given (0: none)"})
	earlyStop := fs.Int("early-stop", 10, "epochs without a lower validation loss before stopping (0: never)")
	lrDecay := fs.Float64("lr-decay", 0.95, "learning-rate factor per epoch")
	weightDecay := fs.Float64("weight-decay", 1e-5, "Adam weight decay (L2; 0: none)")
	learnTau := fs.Bool("learn-temperature", false, "let Adam update the loss temperature τ (the original leaves it at 1)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, rovistTrainUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *pairsPath == "" || *crops == "" || *glovePath == "" || *tf.out == "" || (*initPath == "") == (*tf.resume == "") {
		fs.Usage()
		return errors.New("give -pairs, -crops, -glove, -out and exactly one of -init or -resume")
	}
	if *tf.epochs <= 0 || *tf.batch <= 0 || !(*tf.lr > 0) || !(*lrDecay > 0) || !(*weightDecay >= 0) || *tf.valFraction < 0 || *tf.valFraction >= 1 {
		return errors.New("-epochs, -batch, -lr and -lr-decay must be positive, -weight-decay not negative, -val-fraction in [0, 1)")
	}
	dev, err := tf.openDevice()
	if err != nil {
		return err
	}
	defer dev.Close()
	pairs, err := rovist.LoadVGPairsCSV(*pairsPath)
	if err != nil {
		return err
	}
	split := rovisttrain.VGSplit{Fraction: *tf.valFraction, Seed: *tf.seed}
	if *validPath != "" {
		if split.Valid, err = story.LoadJSON(*validPath, story.ReadOptions{}); err != nil {
			return err
		}
	}
	if *storiesPath != "" {
		if split.Train, err = story.LoadJSON(*storiesPath, story.ReadOptions{}); err != nil {
			return err
		}
	}
	train, valid := rovisttrain.SplitVGPairs(pairs, split)
	if len(train) == 0 {
		return fmt.Errorf("no training pairs left in %s (check -stories)", *pairsPath)
	}
	g, err := rovist.LoadGloVe(*glovePath, rovist.VGPhraseWords(pairs), rovist.GloVeOptions{})
	if err != nil {
		return err
	}
	folder := rovist.CropFolder{Dir: *crops}
	trainEx, err := rovist.VGExamples(train, folder, g)
	if err != nil {
		return err
	}
	validEx, err := rovist.VGExamples(valid, folder, g)
	if err != nil {
		return err
	}
	opts := rovisttrain.VGTrainOptions{Epochs: *tf.epochs, BatchSize: *tf.batch, LearningRate: *tf.lr, LRDecay: *lrDecay,
		WeightDecay: *weightDecay, NoWeightDecay: *weightDecay == 0, EarlyStop: *earlyStop, LearnTemperature: *learnTau,
		Seed: *tf.seed, CheckpointDir: *tf.checkpoints, Backend: dev.Backend}
	if *earlyStop == 0 {
		opts.EarlyStop = -1
	}
	var tr *rovisttrain.VGTrainer
	if *tf.resume != "" {
		tr, err = rovisttrain.ResumeVGTrainer(*tf.resume, opts)
	} else {
		file, dir, ferr := rovisttrain.ResolveVGInit(*initPath, *vitDir)
		if ferr != nil {
			return fmt.Errorf("-init: %w", ferr)
		}
		tr, err = rovisttrain.NewVGTrainer(file, dir, opts)
	}
	if err != nil {
		return err
	}
	var hist []rovisttrain.VGEpochResult
	ctx, stop := interruptContext()
	defer stop()
	err = runTraining(stderr, len(trainEx)*max(0, *tf.epochs-tr.Epoch()), "pairs", func(bar *epochBar) (err error) {
		tr.SetProgress(func(p training.Progress) { bar.step(p.Done, p.Total) })
		hist, err = tr.Train(ctx, trainEx, validEx)
		return err
	})
	for _, h := range hist {
		fmt.Fprintf(stderr, "epoch %d/%d: lr %.3g, train loss %.5g, validation loss %.5g\n", h.Epoch, *tf.epochs, h.LearningRate, h.TrainLoss, h.ValidationLoss)
	}
	if err != nil {
		return err
	}
	if err := tr.SaveModel(*tf.out); err != nil {
		return err
	}
	res := rovistTrainOutput{Model: filepath.Join(*tf.out, rovisttrain.VGModelFile), Temperature: Float(tr.Temperature())}
	for _, h := range hist {
		res.Epochs = append(res.Epochs, rovistTrainEpochOutput{Epoch: h.Epoch, LearningRate: Float(h.LearningRate),
			TrainLoss: Float(h.TrainLoss), ValidationLoss: Float(h.ValidationLoss), Best: h.Best, Checkpoint: h.Checkpoint})
	}
	return writeJSON(stdout, res)
}
