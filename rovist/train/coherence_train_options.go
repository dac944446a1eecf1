package train

import (
	"fmt"
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/training"
)

// CoherenceTrainOptions configures RoViST-C training. The zero value gives
// the reference training script's settings (usydnlp/rovist
// scripts/rovist_c.py: batch 32, Adam lr 1e-5 with L2 weight decay 1e-5,
// the learning rate multiplied by 0.95 after every epoch, 50 epochs with
// early stopping after 5 epochs without a lower validation loss, ALBERT in
// train mode, i.e. with its 0.1 dropout).
type CoherenceTrainOptions struct {
	// Epochs is the number of epochs to train (0: 50).
	Epochs int
	// BatchSize is the number of pairs per Adam step (0: 32).
	BatchSize int
	// LearningRate is Adam's initial learning rate (0: 1e-5).
	LearningRate float64
	// WeightDecay is Adam's L2 penalty, torch's weight_decay (0: 1e-5;
	// negative: none).
	WeightDecay float64
	// LRDecay multiplies the learning rate after every epoch, as torch's
	// StepLR(step_size=1) (0: 0.95; 1: constant).
	LRDecay float64
	// EarlyStop stops training after that many consecutive epochs without
	// a lower validation loss (0: 5; negative: never).
	EarlyStop int
	// Dropout is the encoder's dropout during training, applied to the
	// embeddings, the attention probabilities and the attention and
	// feed-forward outputs as AlbertModel does in train mode (0: 0.1, the
	// hidden_dropout_prob and attention_probs_dropout_prob of
	// albert-large-v1; NoDropout turns it off).
	Dropout   float64
	NoDropout bool
	// Seed seeds the validation split, the shuffling, the dropout masks
	// and a new head.
	Seed int64
	// ValidationFraction is the share of the training pairs held out for
	// validation when Train is given none (0: 0.1; negative: none).
	ValidationFraction float64
	// MaxLength bounds an encoded pair, special tokens included; longer
	// pairs are truncated longest-first (0: max_position_embeddings).
	MaxLength int
	// CheckpointDir, when set, receives a checkpoint folder after every
	// epoch (see ResumeCoherenceTrainer).
	CheckpointDir string
	// Progress, when set, is called after every training step.
	Progress func(training.Progress)
	// Backend runs every step — forward, backward and the Adam update —
	// and the evaluation passes (nil: the CPU). It must implement
	// compute.TrainBackend; on a device the weights, gradients and moments
	// are copied back to the host after each step.
	Backend compute.Backend
}

// CoherenceEpoch is the outcome of one training epoch.
type CoherenceEpoch struct {
	Epoch int
	// LearningRate is the epoch's Adam learning rate.
	LearningRate float64
	// TrainLoss and TrainAccuracy are the mean cross-entropy and accuracy
	// of the epoch's steps (each before its update).
	TrainLoss, TrainAccuracy float64
	// ValidationLoss and ValidationAccuracy are measured after the epoch
	// without dropout; NaN without validation pairs.
	ValidationLoss, ValidationAccuracy float64
	// Checkpoint is the epoch's checkpoint folder, if one was written.
	Checkpoint string
}

func (o CoherenceTrainOptions) withDefaults() (CoherenceTrainOptions, error) {
	if o.Epochs < 0 || o.BatchSize < 0 || o.LearningRate < 0 || o.LRDecay < 0 || o.MaxLength < 0 ||
		o.Dropout < 0 || o.Dropout >= 1 || math.IsNaN(o.LearningRate) || math.IsNaN(o.WeightDecay) ||
		math.IsNaN(o.LRDecay) || math.IsNaN(o.Dropout) || math.IsNaN(o.ValidationFraction) || o.ValidationFraction >= 1 {
		return o, fmt.Errorf("invalid coherence training options %+v", o)
	}
	trainloop.Default(&o.Epochs, 50)
	trainloop.Default(&o.BatchSize, 32)
	trainloop.Default(&o.LearningRate, 1e-5)
	switch {
	case o.WeightDecay == 0:
		o.WeightDecay = 1e-5
	case o.WeightDecay < 0:
		o.WeightDecay = 0
	}
	trainloop.Default(&o.LRDecay, 0.95)
	trainloop.Default(&o.EarlyStop, 5)
	trainloop.Default(&o.Dropout, 0.1)
	if o.NoDropout {
		o.Dropout = 0
	}
	trainloop.Default(&o.ValidationFraction, 0.1)
	return o, nil
}
