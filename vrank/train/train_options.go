package train

import (
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/internal/trainloop"
	"github.com/storyeval/storyeval/training"
)

// Pair is one training or validation pair: two stories and the ranking
// gap between them (the VHED CSV's label: the average rank of story 1 minus
// that of story 2, so a negative gap means story 1 is better).
type Pair struct {
	Story1, Story2 string
	Gap            float64
}

// Options configures fine-tuning. The zero value is the Vrank paper's
// setting: 30 epochs, batches of 32, Adam with lr 2e-5 and torch's betas
// and eps, dropout 0.1 on the CLS feature and BERT's own 0.1 hidden and
// attention dropout inside the encoder (a transformers BertModel in train
// mode, as the paper fine-tuned it), symmetric augmentation, seed 7777 and a
// validation split of 10 % when no validation set is given. The epoch of
// highest validation accuracy is kept (see Trainer.BestModel).
type Options struct {
	// Epochs is the number of passes over the training pairs (0: 30).
	Epochs int
	// BatchSize is the number of pairs per Adam step (0: 32).
	BatchSize int
	// LearningRate is Adam's lr (0: 2e-5).
	LearningRate float64
	// Beta1, Beta2 and Epsilon are Adam's (0: torch's 0.9, 0.999, 1e-8).
	Beta1, Beta2, Epsilon float64
	// Dropout is the dropout probability on the head's input during
	// training (0: 0.1); NoDropout turns it off.
	Dropout   float64
	NoDropout bool
	// EncoderDropout is the dropout probability inside the encoder during
	// training — on the embeddings, the attention probabilities and the
	// attention and feed-forward outputs, where transformers' BertModel
	// applies hidden_dropout_prob and attention_probs_dropout_prob in train
	// mode (0: 0.1, the value of BERT-base's and SimCSE's configs).
	// NoEncoderDropout turns it off, as the reference fixture's Adam step
	// was computed (its model in eval mode).
	EncoderDropout   float64
	NoEncoderDropout bool
	// NoAugment turns off symmetric augmentation, which adds every training
	// pair swapped, with the negated gap.
	NoAugment bool
	// Seed drives the validation split, the shuffling and the dropout masks
	// (0: 7777, the paper's).
	Seed int64
	// ValidationFraction is the share of the training pairs held out for
	// validation when Train gets no validation set (0: 0.1; negative: none).
	ValidationFraction float64
	// CheckpointDir, when set, receives a checkpoint after every epoch, a
	// model folder named epoch-NNN that vrank.Load and ResumeTrainer read.
	CheckpointDir string
	// KeepCheckpoints is the number of most recent epoch checkpoints kept
	// (0: 1). The checkpoint of the best epoch (highest validation
	// accuracy, see Trainer.Best) is kept beside them.
	KeepCheckpoints int
	// Progress, when set, is called after every step.
	Progress func(training.Progress)
	// Backend runs every step — forward, backward and the Adam update —
	// and the evaluation passes (nil: the CPU). It must implement
	// compute.TrainBackend. On a device the weights, gradients and
	// moments are kept there and copied back to the host after each step.
	Backend compute.Backend
}

// EpochResult summarises one epoch.
type EpochResult struct {
	Epoch int
	// TrainLoss is the mean MSE over the epoch's batches.
	TrainLoss float64
	// ValidationLoss is the MSE on the validation pairs, and
	// ValidationAccuracy the share of them whose predicted order is strict
	// and agrees with the gold order (the Vrank paper's eq. 1–2; ties are
	// wrong); both NaN without validation pairs.
	ValidationLoss, ValidationAccuracy float64
	// Checkpoint is the folder the epoch was saved to ("" if none).
	Checkpoint string
}

// withDefaults fills the zero fields with the paper's values.
func (o Options) withDefaults() Options {
	trainloop.Default(&o.Epochs, 30)
	trainloop.Default(&o.BatchSize, 32)
	trainloop.Default(&o.LearningRate, 2e-5)
	trainloop.Default(&o.Beta1, 0.9)
	trainloop.Default(&o.Beta2, 0.999)
	trainloop.Default(&o.Epsilon, 1e-8)
	trainloop.Default(&o.Dropout, 0.1)
	if o.NoDropout {
		o.Dropout = 0
	}
	trainloop.Default(&o.EncoderDropout, 0.1)
	if o.NoEncoderDropout {
		o.EncoderDropout = 0
	}
	trainloop.Default(&o.Seed, 7777)
	trainloop.Default(&o.ValidationFraction, 0.1)
	trainloop.Default(&o.KeepCheckpoints, 1)
	return o
}
