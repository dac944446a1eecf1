package vrank

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// Files a training checkpoint adds to a model folder.
const (
	optimizerFile = "optimizer.safetensors"
	stateFile     = "trainer_state.json"
	epochPrefix   = "epoch-"
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

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// writeCheckpoint writes the model, Adam's moments and the trainer state to
// root/epoch-NNN. Everything is written into a temporary folder first and
// renamed into place, so a checkpoint folder is either complete or absent;
// older checkpoints beyond KeepCheckpoints are then removed.
func (t *Trainer) writeCheckpoint(root string) (string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("vrank: checkpoint: %w", err)
	}
	name := fmt.Sprintf("%s%03d", epochPrefix, t.epoch)
	final := filepath.Join(root, name)
	tmp, err := os.MkdirTemp(root, "."+name+".tmp")
	if err != nil {
		return "", fmt.Errorf("vrank: checkpoint: %w", err)
	}
	fail := func(err error) (string, error) {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("vrank: checkpoint %s: %w", final, err)
	}
	if err := saveFolder(tmp, t.cfg, t.net.p, t.tokFiles); err != nil {
		return fail(err)
	}
	var moments []safetensors.Tensor
	for prefix, p := range map[string]*params[float32]{"m.": t.opt.m, "v.": t.opt.v} {
		for _, nt := range p.tensors() {
			moments = append(moments, safetensors.Tensor{Name: prefix + nt.name, Shape: nt.shape, F32: nt.data})
		}
	}
	if err := safetensors.WriteFile(filepath.Join(tmp, optimizerFile), moments, map[string]string{"optimizer": "torch.optim.Adam"}); err != nil {
		return fail(err)
	}
	st := trainerState{Epoch: t.epoch, AdamStep: t.opt.Step, Seed: t.opts.Seed}
	for _, h := range t.history {
		st.History = append(st.History, epochJSON{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: finiteOrNil(h.ValidationLoss), ValidationAccuracy: finiteOrNil(h.ValidationAccuracy)})
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fail(err)
	}
	if err := writeAtomic(filepath.Join(tmp, stateFile), data); err != nil {
		return fail(err)
	}
	if err := os.RemoveAll(final); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fail(err)
	}
	// Prune older checkpoints only once the new one is in place.
	all := listCheckpoints(root)
	for len(all) > t.opts.KeepCheckpoints {
		os.RemoveAll(filepath.Join(root, all[0]))
		all = all[1:]
	}
	return final, nil
}

// listCheckpoints returns the epoch-NNN folders of root, oldest first.
func listCheckpoints(root string) []string {
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), epochPrefix) {
			if _, err := os.Stat(filepath.Join(root, e.Name(), stateFile)); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	sort.Strings(names)
	return names
}

// ResumeTrainer continues training from a checkpoint: dir is either one
// epoch-NNN folder or the CheckpointDir holding them (the latest is used).
// opts should be those of the interrupted run (with more Epochs to train
// longer); Train then continues with the epoch after the checkpoint's and,
// given the same pairs, reaches the same weights as an uninterrupted run.
func ResumeTrainer(dir string, opts TrainOptions) (*Trainer, error) {
	if _, err := os.Stat(filepath.Join(dir, stateFile)); err != nil {
		all := listCheckpoints(dir)
		if len(all) == 0 {
			return nil, fmt.Errorf("vrank: %s holds no training checkpoint (%s)", dir, stateFile)
		}
		dir = filepath.Join(dir, all[len(all)-1])
	}
	data, err := readSmall(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	var st trainerState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", filepath.Join(dir, stateFile), err)
	}
	if st.Epoch < 0 || st.AdamStep < 0 {
		return nil, fmt.Errorf("vrank: %s: negative epoch or step", filepath.Join(dir, stateFile))
	}
	m, err := Load(dir)
	if err != nil {
		return nil, err
	}
	t, err := NewTrainer(m, opts)
	if err != nil {
		return nil, err
	}
	ck, err := checkpoint.Open(filepath.Join(dir, optimizerFile))
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	defer ck.Close()
	for prefix, p := range map[string]*params[float32]{"m.": t.opt.m, "v.": t.opt.v} {
		for _, nt := range p.tensors() {
			info, ok := ck.Info(prefix + nt.name)
			if !ok || !sameShape(info.Shape, nt.shape) {
				return nil, fmt.Errorf("vrank: %s: no tensor %q of shape %v", filepath.Join(dir, optimizerFile), prefix+nt.name, nt.shape)
			}
			if err := ck.ReadFloat32(prefix+nt.name, nt.data); err != nil {
				return nil, fmt.Errorf("vrank: %s: %w", filepath.Join(dir, optimizerFile), err)
			}
		}
	}
	t.opt.Step = st.AdamStep
	t.epoch = st.Epoch
	for _, h := range st.History {
		t.history = append(t.history, EpochResult{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: orNaN(h.ValidationLoss), ValidationAccuracy: orNaN(h.ValidationAccuracy)})
	}
	return t, nil
}
