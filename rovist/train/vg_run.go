package train

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// VGRun is a RoViST-VG training run from files, as `storyeval rovist
// train vg` sets one up; its errors name the fields by that command's
// flags (-stories, -init).
type VGRun struct {
	// Pairs is the region–phrase pairs CSV (rovist.LoadVGPairsCSV), Crops
	// the folder of their crops, GloVe the GloVe text file (.gz read too).
	Pairs, Crops, GloVe string
	// Stories, when set, keeps for training only the pairs of its stories'
	// images; ValidStories, when set, validates on the pairs of its
	// stories' images instead of a share of the pairs (see VGSplit).
	Stories, ValidStories string
	// ValidationFraction is VGSplit.Fraction, seeded with Options.Seed.
	ValidationFraction float64
	// Init and ViT start a new trainer (ResolveVGInit); Resume, when set,
	// continues from a checkpoint folder instead.
	Init, ViT, Resume string
	// Out is the folder the trained model is saved to (VGTrainer.SaveModel).
	Out string
	// Options configure the trainer, its Backend and Progress included.
	Options VGTrainOptions
}

// VGReport is the outcome of a VGRun; it marshals to JSON as the command
// prints it.
type VGReport struct {
	// Model is the model file written.
	Model string
	// Temperature is the loss temperature τ after training.
	Temperature float64
	// Epochs are the epochs this run trained (not those of a resumed
	// checkpoint).
	Epochs []VGEpochResult
}

// Run loads the pairs, splits them, reads the GloVe vectors of their
// phrases and the crops, opens the trainer, trains and saves the model to
// Out. After an error in training the report still holds the epochs done.
func (r *VGRun) Run(ctx context.Context) (VGReport, error) {
	pairs, err := rovist.LoadVGPairsCSV(r.Pairs)
	if err != nil {
		return VGReport{}, err
	}
	split := VGSplit{Fraction: r.ValidationFraction, Seed: r.Options.Seed}
	for _, s := range []struct {
		path string
		set  **story.Set
	}{{r.ValidStories, &split.Valid}, {r.Stories, &split.Train}} {
		if s.path != "" {
			if *s.set, err = story.LoadJSON(s.path, story.ReadOptions{}); err != nil {
				return VGReport{}, err
			}
		}
	}
	train, valid := SplitVGPairs(pairs, split)
	if len(train) == 0 {
		return VGReport{}, fmt.Errorf("no training pairs left in %s (check -stories)", r.Pairs)
	}
	g, err := rovist.LoadGloVe(r.GloVe, rovist.VGPhraseWords(pairs), rovist.GloVeOptions{})
	if err != nil {
		return VGReport{}, err
	}
	folder := rovist.CropFolder{Dir: r.Crops}
	trainEx, err := rovist.VGExamples(train, folder, g)
	if err != nil {
		return VGReport{}, err
	}
	validEx, err := rovist.VGExamples(valid, folder, g)
	if err != nil {
		return VGReport{}, err
	}
	tr, err := r.trainer()
	if err != nil {
		return VGReport{}, err
	}
	hist, err := tr.Train(ctx, trainEx, validEx)
	rep := VGReport{Model: filepath.Join(r.Out, VGModelFile), Temperature: tr.Temperature(), Epochs: hist}
	if err == nil {
		err = tr.SaveModel(r.Out)
	}
	return rep, err
}

// trainer resumes from Resume or starts from Init.
func (r *VGRun) trainer() (*VGTrainer, error) {
	if r.Resume != "" {
		return ResumeVGTrainer(r.Resume, r.Options)
	}
	file, dir, err := ResolveVGInit(r.Init, r.ViT)
	if err != nil {
		return nil, fmt.Errorf("-init: %w", err)
	}
	return NewVGTrainer(file, dir, r.Options)
}

// MarshalJSON writes the report as {"model", "temperature", "epochs"},
// an undefined temperature as null.
func (r VGReport) MarshalJSON() ([]byte, error) {
	return jsonfloat.Marshal(struct {
		Model       string          `json:"model"`
		Temperature jsonfloat.Float `json:"temperature"`
		Epochs      []VGEpochResult `json:"epochs"`
	}{r.Model, jsonfloat.Float(r.Temperature), r.Epochs})
}

// MarshalJSON writes the epoch with snake_case names, undefined losses
// (no validation pairs) as null and no checkpoint member when none was
// written.
func (e VGEpochResult) MarshalJSON() ([]byte, error) {
	return jsonfloat.Marshal(struct {
		Epoch          int             `json:"epoch"`
		LearningRate   jsonfloat.Float `json:"learning_rate"`
		TrainLoss      jsonfloat.Float `json:"train_loss"`
		ValidationLoss jsonfloat.Float `json:"validation_loss"`
		Best           bool            `json:"best"`
		Checkpoint     string          `json:"checkpoint,omitempty"`
	}{e.Epoch, jsonfloat.Float(e.LearningRate), jsonfloat.Float(e.TrainLoss), jsonfloat.Float(e.ValidationLoss), e.Best, e.Checkpoint})
}
