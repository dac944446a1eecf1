package train

import (
	"fmt"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/rovist"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/safetensors"
	"github.com/storyeval/storyeval/internal/trainckpt"
)

// Files of a RoViST-VG training checkpoint folder. model.safetensors holds
// Region2PhraseModel's state_dict under its names, so that
// LoadGroundingModel(dir/model.safetensors, dir) scores with it.
const (
	VGModelFile  = "model.safetensors"
	maxSmallFile = 16 << 20
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
	if err := trainckpt.WriteFolder(dir, t.writeModelFiles); err != nil {
		return fmt.Errorf("vg model %s: %w", dir, err)
	}
	return nil
}

// vgMoments pairs Adam's moments tensor by tensor, as trainckpt writes and
// reads them.
func (t *VGTrainer) vgMoments() []trainckpt.Moment {
	ms, vs := t.m, t.v
	return trainckpt.Moments(len(ms), func(i int) trainckpt.Moment {
		return trainckpt.Moment{Name: ms[i].Name, Shape: ms[i].Shape, M: ms[i].Data, V: vs[i].Data}
	})
}

// writeModelFiles writes the scorer's files into dir: the state_dict,
// config.json and, when the starting ViT had one, preprocessor_config.json.
func (t *VGTrainer) writeModelFiles(dir string) error {
	var model []safetensors.Tensor
	for _, nt := range t.net.p.tensors() {
		model = append(model, safetensors.Tensor{Name: nt.Name, Shape: nt.Shape, F32: nt.Data})
	}
	if err := safetensors.WriteFile(filepath.Join(dir, VGModelFile), model, map[string]string{"format": "pt", "model": "Region2PhraseModel"}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), t.vitConfig, 0o644); err != nil {
		return err
	}
	if t.procJSON != nil {
		return os.WriteFile(filepath.Join(dir, "preprocessor_config.json"), t.procJSON, 0o644)
	}
	return nil
}

// writeCheckpoint writes root/epoch-NNN (NNN: epochs completed) with the
// model, Adam's state and the trainer state.
func (t *VGTrainer) writeCheckpoint(root string) (string, error) {
	st := vgTrainerState{Epoch: t.epoch, AdamStep: t.opt.Step, Temperature: t.tau, TempM: t.tauM, TempV: t.tauV,
		Seed: t.opts.Seed, Best: trainckpt.Finite(t.best), SinceBest: t.sinceBest}
	for _, h := range t.history {
		st.History = append(st.History, vgEpochJSON{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: trainckpt.Finite(h.ValidationLoss), LearningRate: h.LearningRate, Best: h.Best})
	}
	dir, err := trainckpt.WriteEpoch(root, t.epoch, t.writeModelFiles, t.vgMoments(), st)
	if err != nil {
		return dir, fmt.Errorf("vg checkpoint %s: %w", dir, err)
	}
	return dir, nil
}

// ResumeVGTrainer continues training from a checkpoint: dir is an epoch-NNN
// folder or the CheckpointDir holding them (the newest is used). opts
// should be those of the interrupted run (more Epochs to train longer);
// Train then continues with the next epoch and, given the same examples,
// reaches the same weights as an uninterrupted run.
func ResumeVGTrainer(dir string, opts VGTrainOptions) (*VGTrainer, error) {
	var st vgTrainerState
	dir, err := trainckpt.ReadLatest(dir, "vg training", &st)
	if err != nil {
		return nil, fmt.Errorf("vg checkpoint: %w", err)
	}
	if st.Epoch < 0 || st.AdamStep < 0 || st.SinceBest < 0 || math.IsNaN(st.Temperature) || math.IsInf(st.Temperature, 0) {
		return nil, fmt.Errorf("vg checkpoint %s: invalid state", filepath.Join(dir, trainckpt.StateFile))
	}
	t, err := NewVGTrainer(filepath.Join(dir, VGModelFile), dir, opts)
	if err != nil {
		return nil, err
	}
	t.tau = st.Temperature
	if err := trainckpt.ReadMoments(dir, t.vgMoments(), openTensors); err != nil {
		return nil, fmt.Errorf("vg checkpoint: %w", err)
	}
	t.opt.Step, t.epoch, t.tauM, t.tauV = st.AdamStep, st.Epoch, st.TempM, st.TempV
	t.best, t.sinceBest = trainckpt.Or(st.Best, math.Inf(1)), st.SinceBest
	for _, h := range st.History {
		t.history = append(t.history, VGEpochResult{Epoch: h.Epoch, TrainLoss: h.TrainLoss,
			ValidationLoss: trainckpt.Or(h.ValidationLoss, math.NaN()), LearningRate: h.LearningRate, Best: h.Best})
	}
	return t, nil
}

// GroundingModel returns the scorer's model with the trainer's current
// weights (a copy: training on does not change it), built in memory: the
// model that LoadGroundingModel reads back from a folder SaveModel wrote.
func (t *VGTrainer) GroundingModel() (*rovist.GroundingModel, error) {
	ts := t.net.p.tensors()
	st, err := copiedState(len(ts), func(i int) checkpoint.Float32Tensor {
		return checkpoint.Float32Tensor{Name: ts[i].Name, Shape: ts[i].Shape, Data: ts[i].Data}
	})
	if err != nil {
		return nil, err
	}
	return rovist.NewGroundingModel(t.vitCfg, t.pcfg, st)
}
