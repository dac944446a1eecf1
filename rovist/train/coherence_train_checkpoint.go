package train

import (
	"encoding/json"
	"fmt"
	"github.com/storyeval/storyeval/rovist"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/safetensors"
	"github.com/storyeval/storyeval/internal/trainckpt"
)

// coherenceTrainerState is trainer_state.json: where training stands.
type coherenceTrainerState struct {
	Epoch    int                  `json:"epoch"`
	AdamStep int                  `json:"adam_step"`
	Seed     int64                `json:"seed"`
	BestLoss *float64             `json:"best_validation_loss"`
	Bad      int                  `json:"epochs_since_best"`
	History  []coherenceEpochJSON `json:"history"`
}

// coherenceEpochJSON is a CoherenceEpoch with NaN written as null.
type coherenceEpochJSON struct {
	Epoch              int      `json:"epoch"`
	LearningRate       float64  `json:"learning_rate"`
	TrainLoss          float64  `json:"train_loss"`
	TrainAccuracy      float64  `json:"train_accuracy"`
	ValidationLoss     *float64 `json:"validation_loss"`
	ValidationAccuracy *float64 `json:"validation_accuracy"`
}

// LoadCoherenceModelDir loads a RoViST-C model folder as the trainer writes
// it (SaveModel, or a checkpoint folder): CoherenceWeightsFile beside the
// ALBERT config.json and spiece.model.
func LoadCoherenceModelDir(dir string) (*rovist.CoherenceModel, error) {
	return rovist.LoadCoherenceModel(filepath.Join(dir, CoherenceWeightsFile), dir)
}

// weightTensors lists the classifier's weights in the reference state_dict
// layout (albert_model.*, linear.*).
func (t *CoherenceTrainer) weightTensors() []safetensors.Tensor {
	var out []safetensors.Tensor
	for _, nt := range t.net.p.tensors() {
		out = append(out, safetensors.Tensor{Name: nt.Name, Shape: nt.Shape, F32: nt.Data})
	}
	return out
}

// SaveModel writes the current model to dir (created if needed):
// config.json, spiece.model and CoherenceWeightsFile, each written to a
// temporary file and renamed. LoadCoherenceModelDir reads it. config.json
// describes the configuration that was trained (see albertConfigJSON), even
// where the trainer was given the bytes of another one.
func (t *CoherenceTrainer) SaveModel(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	conf, err := albertConfigJSON(t.cfg, t.files[albertConfigFile])
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	files := maps.Clone(t.files)
	if files == nil {
		files = map[string][]byte{}
	}
	files[albertConfigFile] = conf
	for name, data := range files {
		err := safetensors.AtomicWrite(filepath.Join(dir, name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, CoherenceWeightsFile), t.weightTensors(), map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// Model returns a scorer with the current weights (a copy: training on
// does not change it), built in memory.
func (t *CoherenceTrainer) Model() (*rovist.CoherenceModel, error) {
	ts := t.net.p.tensors()
	st, err := copiedState(len(ts), func(i int) checkpoint.Float32Tensor {
		return checkpoint.Float32Tensor{Name: ts[i].Name, Shape: ts[i].Shape, Data: ts[i].Data}
	})
	if err != nil {
		return nil, err
	}
	return rovist.NewCoherenceModel(t.cfg, st, t.tok)
}

// albertConfigJSON returns config.json for a saved model: the members of
// given (the config.json the trainer started from, if any, so that entries
// such as model_type or architectures survive) with every ALBERTConfig
// field replaced by cfg's, the configuration that was trained. Writing given
// unchanged saved a 3-layer config.json beside 2-layer weights when the two
// disagreed, and the saved model then scored differently from the trained
// one.
func albertConfigJSON(cfg encoders.ALBERTConfig, given []byte) ([]byte, error) {
	members := map[string]json.RawMessage{}
	if len(given) > 0 {
		if err := json.Unmarshal(given, &members); err != nil {
			return nil, fmt.Errorf("config.json the trainer was given: %w", err)
		}
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	trained := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &trained); err != nil {
		return nil, err
	}
	maps.Copy(members, trained)
	return json.MarshalIndent(members, "", "  ")
}

// coherenceMoments pairs Adam's moments tensor by tensor, as
// trainckpt writes and reads them.
func (t *CoherenceTrainer) coherenceMoments() []trainckpt.Moment {
	ms, vs := t.m, t.v
	return trainckpt.Moments(len(ms), func(i int) trainckpt.Moment {
		return trainckpt.Moment{Name: ms[i].Name, Shape: ms[i].Shape, M: ms[i].Data, V: vs[i].Data}
	})
}

// writeCheckpoint writes the model, Adam's moments and the trainer state to
// root/epoch-NNN, through a temporary folder renamed into place, so a
// checkpoint folder is either complete or absent.
func (t *CoherenceTrainer) writeCheckpoint(root string) (string, error) {
	st := coherenceTrainerState{Epoch: t.epoch, AdamStep: t.adam.Step, Seed: t.opts.Seed, BestLoss: trainckpt.Finite(t.best), Bad: t.bad}
	for _, h := range t.history {
		st.History = append(st.History, coherenceEpochJSON{Epoch: h.Epoch, LearningRate: h.LearningRate, TrainLoss: h.TrainLoss, TrainAccuracy: h.TrainAccuracy,
			ValidationLoss: trainckpt.Finite(h.ValidationLoss), ValidationAccuracy: trainckpt.Finite(h.ValidationAccuracy)})
	}
	final, err := trainckpt.WriteEpoch(root, t.epoch, t.SaveModel, t.coherenceMoments(), st)
	if err != nil {
		return "", fmt.Errorf("checkpoint %s: %w", final, err)
	}
	return final, nil
}

// ResumeCoherenceTrainer continues training from a checkpoint: dir is one
// epoch-NNN folder or the CheckpointDir holding them (the latest is used).
// opts should be those of the interrupted run (with more Epochs to train
// longer); given the same pairs, Train then reaches the weights of an
// uninterrupted run.
func ResumeCoherenceTrainer(dir string, opts CoherenceTrainOptions) (*CoherenceTrainer, error) {
	var st coherenceTrainerState
	dir, err := trainckpt.ReadLatest(dir, "coherence training", &st)
	if err != nil {
		return nil, err
	}
	if st.Epoch < 0 || st.AdamStep < 0 || st.Bad < 0 {
		return nil, fmt.Errorf("%s: negative epoch, step or count", filepath.Join(dir, trainckpt.StateFile))
	}
	t, err := NewCoherenceTrainer(filepath.Join(dir, CoherenceWeightsFile), dir, opts)
	if err != nil {
		return nil, err
	}
	if err := trainckpt.ReadMoments(dir, t.coherenceMoments(), openTensors); err != nil {
		return nil, err
	}
	t.adam.Step, t.epoch, t.bad = st.AdamStep, st.Epoch, st.Bad
	if st.BestLoss != nil {
		t.best = *st.BestLoss
	}
	for _, h := range st.History {
		t.history = append(t.history, CoherenceEpoch{Epoch: h.Epoch, LearningRate: h.LearningRate, TrainLoss: h.TrainLoss, TrainAccuracy: h.TrainAccuracy,
			ValidationLoss: trainckpt.Or(h.ValidationLoss, math.NaN()), ValidationAccuracy: trainckpt.Or(h.ValidationAccuracy, math.NaN())})
	}
	return t, nil
}

// NewRandomCoherenceTrainer starts RoViST-C training from random weights
// (BERT's initialisation: normal(0, 0.02) weights, zero biases, unit
// LayerNorms) for an ALBERT configuration and tokenizer; used to train small
// models from scratch and in tests. files may hold config.json and
// spiece.model to write with every checkpoint.
func NewRandomCoherenceTrainer(cfg encoders.ALBERTConfig, tok *tokenize.ALBERT, files map[string][]byte, opts CoherenceTrainOptions) (*CoherenceTrainer, error) {
	if err := checkSOPConfig(cfg); err != nil {
		return nil, fmt.Errorf("coherence training: %w", err)
	}
	if tok == nil || tok.VocabSize() != cfg.VocabSize {
		return nil, fmt.Errorf("coherence training: the tokenizer's piece count must equal vocab_size %d", cfg.VocabSize)
	}
	p := newSOPParams[float32](cfg)
	initSOPRandom(p, opts.Seed)
	return newCoherenceTrainer(cfg, tok, files, p, opts)
}
