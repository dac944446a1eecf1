package train

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/trainckpt"
	"github.com/storyeval/storyeval/vrank"
)

// trainerState is trainer_state.json: where training stands.
type trainerState struct {
	Epoch    int         `json:"epoch"`
	AdamStep int         `json:"adam_step"`
	Seed     int64       `json:"seed"`
	History  []epochJSON `json:"history"`
}

// epochJSON is an EpochResult with NaN written as null.
type epochJSON struct {
	Epoch              int      `json:"epoch"`
	TrainLoss          float64  `json:"train_loss"`
	ValidationLoss     *float64 `json:"validation_loss"`
	ValidationAccuracy *float64 `json:"validation_accuracy"`
}

// writeCheckpoint writes the model, Adam's moments and the trainer state to
// root/epoch-NNN. Everything is written into a temporary folder first and
// renamed into place, so a checkpoint folder is either complete or absent;
// older checkpoints beyond KeepCheckpoints are then removed.
func (t *Trainer) writeCheckpoint(root string) (string, error) {
	st := trainerState{Epoch: t.epoch, AdamStep: t.opt.Step, Seed: t.opts.Seed}
	for _, h := range t.history {
		st.History = append(st.History, epochJSON{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: trainckpt.Finite(h.ValidationLoss), ValidationAccuracy: trainckpt.Finite(h.ValidationAccuracy)})
	}
	final, err := trainckpt.WriteEpoch(root, t.epoch, t.saveModel, t.moments(), st)
	if err != nil {
		return "", fmt.Errorf("checkpoint %s: %w", final, err)
	}
	// Prune older checkpoints only once the new one is in place, keeping
	// the best epoch's.
	var spare []int
	if best, ok := t.Best(); ok {
		spare = append(spare, best.Epoch)
	}
	trainckpt.Prune(root, t.opts.KeepCheckpoints, spare...)
	return final, nil
}

// saveModel writes the model folder (config, weights, tokenizer files).
func (t *Trainer) saveModel(dir string) error {
	m, err := t.modelOf(t.net.p, false)
	if err != nil {
		return err
	}
	return m.Save(dir)
}

// moments pairs Adam's moments tensor by tensor, as trainckpt writes and
// reads them.
func (t *Trainer) moments() []trainckpt.Moment {
	ms, vs := t.opt.m, t.opt.v
	return trainckpt.Moments(len(ms), func(i int) trainckpt.Moment {
		return trainckpt.Moment{Name: ms[i].Name, Shape: ms[i].Shape, M: ms[i].Data, V: vs[i].Data}
	})
}

// ResumeTrainer continues training from a checkpoint: dir is either one
// epoch-NNN folder or the CheckpointDir holding them (the latest is used).
// opts should be those of the interrupted run (with more Epochs to train
// longer); Train then continues with the epoch after the checkpoint's and,
// given the same pairs, reaches the same weights as an uninterrupted run.
func ResumeTrainer(dir string, opts Options) (*Trainer, error) {
	var st trainerState
	dir, err := trainckpt.ReadLatest(dir, "training", &st)
	if err != nil {
		return nil, err
	}
	if st.Epoch < 0 || st.AdamStep < 0 {
		return nil, fmt.Errorf("%s: negative epoch or step", filepath.Join(dir, trainckpt.StateFile))
	}
	m, err := vrank.Load(dir)
	if err != nil {
		return nil, err
	}
	t, err := NewTrainer(m, opts)
	if err != nil {
		return nil, err
	}
	if err := trainckpt.ReadMoments(dir, t.moments(), openTensors); err != nil {
		return nil, err
	}
	t.opt.Step = st.AdamStep
	t.epoch = st.Epoch
	for _, h := range st.History {
		e := EpochResult{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: trainckpt.Or(h.ValidationLoss, math.NaN()), ValidationAccuracy: trainckpt.Or(h.ValidationAccuracy, math.NaN())}
		// The epoch folders beside dir that pruning kept (the best one
		// among them) are the epochs' checkpoints again.
		if ck := trainckpt.EpochDir(filepath.Dir(dir), h.Epoch); isCheckpoint(ck) {
			e.Checkpoint = ck
		}
		t.history = append(t.history, e)
	}
	return t, nil
}

// isCheckpoint reports whether dir is a complete checkpoint folder.
func isCheckpoint(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, trainckpt.StateFile))
	return err == nil
}
