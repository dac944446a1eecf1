package train

import (
	"context"

	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/vrank"
)

// TrainRun is a Vrank fine-tuning run from files, as `storyeval vrank
// train` sets one up.
type TrainRun struct {
	// CSV holds the training pairs and ValCSV, when set, the validation
	// pairs (LoadPairs); without them the trainer holds out
	// Options.ValidationFraction of the training pairs.
	CSV, ValCSV string
	// Encoder starts a new model (vrank.NewFromEncoder with Config and
	// Options.Seed); Resume, when set, continues from a checkpoint folder
	// instead.
	Encoder, Resume string
	Config          vrank.Config
	// Out is the folder the epoch of highest validation accuracy is saved
	// to (Trainer.BestModel), as the paper keeps it.
	Out string
	// Options configure the trainer, its Backend and Progress included.
	Options Options
}

// TrainReport is the outcome of a TrainRun; it marshals to JSON as the
// command prints it.
type TrainReport struct {
	// Model is the folder written (Out).
	Model string `json:"model"`
	// BestEpoch is the epoch saved to Model; 0 without validation pairs,
	// when Model is the last epoch's.
	BestEpoch int           `json:"best_epoch,omitempty"`
	Epochs    []EpochResult `json:"epochs"`
}

// Run loads the pairs, opens the trainer, trains and saves the best model
// to Out.
func (r *TrainRun) Run(ctx context.Context) (TrainReport, error) {
	train, err := LoadPairs(r.CSV, limits.Limits{})
	if err != nil {
		return TrainReport{}, err
	}
	var val []Pair
	if r.ValCSV != "" {
		if val, err = LoadPairs(r.ValCSV, limits.Limits{}); err != nil {
			return TrainReport{}, err
		}
	}
	var tr *Trainer
	if r.Resume != "" {
		tr, err = ResumeTrainer(r.Resume, r.Options)
	} else {
		var m *vrank.Model
		if m, err = vrank.NewFromEncoder(r.Encoder, r.Config, r.Options.Seed); err == nil {
			tr, err = NewTrainer(m, r.Options)
		}
	}
	if err != nil {
		return TrainReport{}, err
	}
	rep := TrainReport{Model: r.Out}
	if rep.Epochs, err = tr.Train(ctx, train, val); err != nil {
		return rep, err
	}
	m, err := tr.BestModel()
	if err == nil {
		err = m.Save(r.Out)
	}
	if best, ok := tr.Best(); ok {
		rep.BestEpoch = best.Epoch
	}
	return rep, err
}

// PretrainRun is a masked-LM pre-training run from files, as `storyeval
// vrank pretrain` sets one up.
type PretrainRun struct {
	// Corpus holds the training texts and ValCorpus, when set, the
	// validation texts (LoadCorpusTexts, bounded by Limits); without them
	// the pre-trainer holds out Options.ValidationFraction of the texts.
	Corpus, ValCorpus string
	Limits            limits.Limits
	// Encoder starts from a BERT folder (NewPretrainer); Resume, when set,
	// continues from a checkpoint folder instead.
	Encoder, Resume string
	// Out is the folder the encoder is saved to (Pretrainer.SaveEncoder).
	Out string
	// Options configure the pre-trainer, its Backend and Progress
	// included.
	Options PretrainOptions
}

// PretrainReport is the outcome of a PretrainRun; it marshals to JSON as
// the command prints it.
type PretrainReport struct {
	// Encoder is the folder written (Out).
	Encoder string          `json:"encoder"`
	Epochs  []PretrainEpoch `json:"epochs"`
}

// Run loads the texts, opens the pre-trainer, trains and saves the
// encoder to Out.
func (r *PretrainRun) Run(ctx context.Context) (PretrainReport, error) {
	train, err := LoadCorpusTexts(r.Corpus, r.Limits)
	if err != nil {
		return PretrainReport{}, err
	}
	var val []string
	if r.ValCorpus != "" {
		if val, err = LoadCorpusTexts(r.ValCorpus, r.Limits); err != nil {
			return PretrainReport{}, err
		}
	}
	var pt *Pretrainer
	if r.Resume != "" {
		pt, err = ResumePretrainer(r.Resume, r.Options)
	} else {
		pt, err = NewPretrainer(r.Encoder, r.Options)
	}
	if err != nil {
		return PretrainReport{}, err
	}
	hist, err := pt.Train(ctx, train, val)
	if err == nil {
		err = pt.SaveEncoder(r.Out)
	}
	return PretrainReport{Encoder: r.Out, Epochs: append([]PretrainEpoch{}, hist...)}, err
}

// epochOutput is how an EpochResult and a PretrainEpoch marshal: snake
// case names, undefined values (no validation data) as null, no
// checkpoint member when none was written.
type epochOutput struct {
	Epoch              int             `json:"epoch"`
	TrainLoss          jsonfloat.Float `json:"train_loss"`
	ValidationLoss     jsonfloat.Float `json:"validation_loss"`
	ValidationAccuracy jsonfloat.Float `json:"validation_accuracy"`
	Checkpoint         string          `json:"checkpoint,omitempty"`
}

// MarshalJSON writes the epoch as epochOutput lays it out.
func (e EpochResult) MarshalJSON() ([]byte, error) {
	return jsonfloat.Marshal(epochOutput{e.Epoch, jsonfloat.Float(e.TrainLoss),
		jsonfloat.Float(e.ValidationLoss), jsonfloat.Float(e.ValidationAccuracy), e.Checkpoint})
}

// MarshalJSON writes the epoch as EpochResult's does.
func (e PretrainEpoch) MarshalJSON() ([]byte, error) {
	return EpochResult(e).MarshalJSON()
}
