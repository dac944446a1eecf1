package train

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/limits"
)

// CoherenceRun is a RoViST-C training run from files, as `storyeval
// rovist train c` sets one up.
type CoherenceRun struct {
	// Stories are the training stories and ValStories, when set, the
	// validation stories (LoadSOPPairs); without them the trainer holds
	// out Options.ValidationFraction of the training pairs.
	Stories, ValStories string
	// Limits bounds each stories file (LoadSOPPairs).
	Limits limits.Limits
	// ALBERT and Checkpoint start a new trainer (NewCoherenceTrainer);
	// Resume, when set, continues from a checkpoint folder instead.
	ALBERT, Checkpoint, Resume string
	// Out is the folder the trained model is saved to
	// (CoherenceTrainer.SaveModel).
	Out string
	// Options configure the trainer, its Backend and Progress included.
	Options CoherenceTrainOptions
}

// CoherenceReport is the outcome of a CoherenceRun; it marshals to JSON
// as the command prints it.
type CoherenceReport struct {
	// Model is the folder written (Out).
	Model  string           `json:"model"`
	Epochs []CoherenceEpoch `json:"epochs"`
}

// Run loads the pairs, opens the trainer, trains and saves the model to
// Out.
func (r *CoherenceRun) Run(ctx context.Context) (CoherenceReport, error) {
	train, err := LoadSOPPairs(r.Stories, r.Limits)
	if err != nil {
		return CoherenceReport{}, err
	}
	if len(train) == 0 {
		return CoherenceReport{}, fmt.Errorf("%s: no story has two sentences to make a pair from", r.Stories)
	}
	var val []SOPPair
	if r.ValStories != "" {
		if val, err = LoadSOPPairs(r.ValStories, r.Limits); err != nil {
			return CoherenceReport{}, err
		}
	}
	var tr *CoherenceTrainer
	if r.Resume != "" {
		tr, err = ResumeCoherenceTrainer(r.Resume, r.Options)
	} else {
		tr, err = NewCoherenceTrainer(r.Checkpoint, r.ALBERT, r.Options)
	}
	if err != nil {
		return CoherenceReport{}, err
	}
	hist, err := tr.Train(ctx, train, val)
	if err == nil {
		err = tr.SaveModel(r.Out)
	}
	return CoherenceReport{Model: r.Out, Epochs: append([]CoherenceEpoch{}, hist...)}, err
}

// MarshalJSON writes the epoch with snake_case names, undefined values
// (no validation pairs) as null and no checkpoint member when none was
// written.
func (e CoherenceEpoch) MarshalJSON() ([]byte, error) {
	return jsonfloat.Marshal(struct {
		Epoch              int             `json:"epoch"`
		LearningRate       jsonfloat.Float `json:"learning_rate"`
		TrainLoss          jsonfloat.Float `json:"train_loss"`
		TrainAccuracy      jsonfloat.Float `json:"train_accuracy"`
		ValidationLoss     jsonfloat.Float `json:"validation_loss"`
		ValidationAccuracy jsonfloat.Float `json:"validation_accuracy"`
		Checkpoint         string          `json:"checkpoint,omitempty"`
	}{e.Epoch, jsonfloat.Float(e.LearningRate), jsonfloat.Float(e.TrainLoss), jsonfloat.Float(e.TrainAccuracy),
		jsonfloat.Float(e.ValidationLoss), jsonfloat.Float(e.ValidationAccuracy), e.Checkpoint})
}
