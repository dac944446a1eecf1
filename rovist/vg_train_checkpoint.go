package rovist

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// Files of a RoViST-VG training checkpoint folder. model.safetensors holds
// Region2PhraseModel's state_dict under its names, so that
// LoadGroundingModel(dir/model.safetensors, dir) scores with it.
const (
	VGModelFile     = "model.safetensors"
	vgOptimizerFile = "optimizer.safetensors"
	vgStateFile     = "trainer_state.json"
	vgEpochPrefix   = "epoch-"
	maxSmallFile    = 16 << 20
)

// vgTrainerState is trainer_state.json.
type vgTrainerState struct {
	Epoch       int           `json:"epoch"` // epochs completed
	AdamStep    int           `json:"adam_step"`
	Temperature float64       `json:"temperature"`
	TempM       float64       `json:"temperature_adam_m"`
	TempV       float64       `json:"temperature_adam_v"`
	Seed        int64         `json:"seed"`
	Best        *float64      `json:"best_validation_loss"`
	SinceBest   int           `json:"epochs_since_best"`
	History     []vgEpochJSON `json:"history"`
}

type vgEpochJSON struct {
	Epoch          int      `json:"epoch"`
	TrainLoss      float64  `json:"train_loss"`
	ValidationLoss *float64 `json:"validation_loss"`
	LearningRate   float64  `json:"learning_rate"`
	Best           bool     `json:"best"`
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func ptrOr(v *float64, def float64) float64 {
	if v == nil {
		return def
	}
	return *v
}

func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSmallFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxSmallFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxSmallFile)
	}
	return data, nil
}

// SaveModel writes the model as a folder a scorer loads:
// dir/model.safetensors (the state_dict), config.json and, when the
// starting ViT had one, preprocessor_config.json. The folder is written
// under a temporary name and renamed into place.
func (t *VGTrainer) SaveModel(dir string) error {
	return t.writeFolder(dir, false)
}

func (t *VGTrainer) writeFolder(final string, withState bool) error {
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("rovist: vg checkpoint: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(final)+".tmp")
	if err != nil {
		return fmt.Errorf("rovist: vg checkpoint: %w", err)
	}
	fail := func(err error) error {
		os.RemoveAll(tmp)
		return fmt.Errorf("rovist: vg checkpoint %s: %w", final, err)
	}
	var model []safetensors.Tensor
	for _, nt := range t.net.p.tensors() {
		model = append(model, safetensors.Tensor{Name: nt.name, Shape: nt.shape, F32: nt.data})
	}
	if err := safetensors.WriteFile(filepath.Join(tmp, VGModelFile), model, map[string]string{"format": "pt", "model": "Region2PhraseModel"}); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "config.json"), t.vitConfig, 0o644); err != nil {
		return fail(err)
	}
	if t.procJSON != nil {
		if err := os.WriteFile(filepath.Join(tmp, "preprocessor_config.json"), t.procJSON, 0o644); err != nil {
			return fail(err)
		}
	}
	if withState {
		var moments []safetensors.Tensor
		for _, part := range []struct {
			prefix string
			p      *vgParams[float32]
		}{{"m.", t.m}, {"v.", t.v}} {
			for _, nt := range part.p.tensors() {
				moments = append(moments, safetensors.Tensor{Name: part.prefix + nt.name, Shape: nt.shape, F32: nt.data})
			}
		}
		if err := safetensors.WriteFile(filepath.Join(tmp, vgOptimizerFile), moments, map[string]string{"optimizer": "torch.optim.Adam"}); err != nil {
			return fail(err)
		}
		st := vgTrainerState{Epoch: t.epoch, AdamStep: t.opt.Step, Temperature: t.tau, TempM: t.tauM, TempV: t.tauV,
			Seed: t.opts.Seed, Best: finitePtr(t.best), SinceBest: t.sinceBest}
		for _, h := range t.history {
			st.History = append(st.History, vgEpochJSON{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
				ValidationLoss: finitePtr(h.ValidationLoss), LearningRate: h.LearningRate, Best: h.Best})
		}
		data, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, vgStateFile), data, 0o644); err != nil {
			return fail(err)
		}
	}
	if err := os.RemoveAll(final); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fail(err)
	}
	return nil
}

// writeCheckpoint writes root/epoch-NNN (NNN: epochs completed) with the
// model, Adam's state and the trainer state.
func (t *VGTrainer) writeCheckpoint(root string) (string, error) {
	dir := filepath.Join(root, fmt.Sprintf("%s%03d", vgEpochPrefix, t.epoch))
	return dir, t.writeFolder(dir, true)
}

// latestVGCheckpoint returns dir itself when it is a checkpoint folder, or
// its newest epoch-NNN folder.
func latestVGCheckpoint(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, vgStateFile)); err == nil {
		return dir, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("rovist: vg checkpoint: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), vgEpochPrefix) {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), vgStateFile)); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("rovist: %s holds no vg training checkpoint (%s)", dir, vgStateFile)
	}
	sort.Strings(names)
	return filepath.Join(dir, names[len(names)-1]), nil
}

// ResumeVGTrainer continues training from a checkpoint: dir is an epoch-NNN
// folder or the CheckpointDir holding them (the newest is used). opts
// should be those of the interrupted run (more Epochs to train longer);
// Train then continues with the next epoch and, given the same examples,
// reaches the same weights as an uninterrupted run.
func ResumeVGTrainer(dir string, opts VGTrainOptions) (*VGTrainer, error) {
	dir, err := latestVGCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	data, err := readSmallFile(filepath.Join(dir, vgStateFile))
	if err != nil {
		return nil, fmt.Errorf("rovist: vg checkpoint: %w", err)
	}
	var st vgTrainerState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("rovist: vg checkpoint %s: %w", filepath.Join(dir, vgStateFile), err)
	}
	if st.Epoch < 0 || st.AdamStep < 0 || st.SinceBest < 0 || math.IsNaN(st.Temperature) || math.IsInf(st.Temperature, 0) {
		return nil, fmt.Errorf("rovist: vg checkpoint %s: invalid state", filepath.Join(dir, vgStateFile))
	}
	t, err := NewVGTrainer(filepath.Join(dir, VGModelFile), dir, opts)
	if err != nil {
		return nil, err
	}
	t.tau = st.Temperature
	ck, err := checkpoint.Open(filepath.Join(dir, vgOptimizerFile))
	if err != nil {
		return nil, fmt.Errorf("rovist: vg checkpoint: %w", err)
	}
	defer ck.Close()
	for _, part := range []struct {
		prefix string
		p      *vgParams[float32]
	}{{"m.", t.m}, {"v.", t.v}} {
		for _, nt := range part.p.tensors() {
			info, ok := ck.Info(part.prefix + nt.name)
			if !ok || !sameInts(info.Shape, nt.shape) {
				return nil, fmt.Errorf("rovist: vg checkpoint %s: no tensor %q of shape %v", filepath.Join(dir, vgOptimizerFile), part.prefix+nt.name, nt.shape)
			}
			if err := ck.ReadFloat32(part.prefix+nt.name, nt.data); err != nil {
				return nil, fmt.Errorf("rovist: vg checkpoint %s: %w", filepath.Join(dir, vgOptimizerFile), err)
			}
		}
	}
	t.opt.Step, t.epoch, t.tauM, t.tauV = st.AdamStep, st.Epoch, st.TempM, st.TempV
	t.best, t.sinceBest = ptrOr(st.Best, math.Inf(1)), st.SinceBest
	for _, h := range st.History {
		t.history = append(t.history, VGEpochResult{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: ptrOr(h.ValidationLoss, math.NaN()), LearningRate: h.LearningRate, Best: h.Best})
	}
	return t, nil
}

// GroundingModel returns the scorer's model with the trainer's current
// weights (a copy: training on does not change it), the model that
// LoadGroundingModel reads back from a folder SaveModel wrote.
func (t *VGTrainer) GroundingModel() (*GroundingModel, error) {
	tmp, err := os.MkdirTemp("", "rovist-vg-model")
	if err != nil {
		return nil, fmt.Errorf("rovist: vg training: %w", err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "model")
	if err := t.SaveModel(dir); err != nil {
		return nil, err
	}
	return LoadGroundingModel(filepath.Join(dir, VGModelFile), dir)
}
