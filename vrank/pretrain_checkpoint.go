package vrank

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// pretrainState is a pre-training checkpoint's trainer_state.json.
type pretrainState struct {
	Epoch    int                 `json:"epoch"`
	AdamStep int                 `json:"adam_step"`
	Seed     int64               `json:"seed"`
	History  []pretrainEpochJSON `json:"history"`
}

type pretrainEpochJSON struct {
	Epoch              int      `json:"epoch"`
	TrainLoss          *float64 `json:"train_loss"`
	ValidationLoss     *float64 `json:"validation_loss"`
	ValidationAccuracy *float64 `json:"validation_accuracy"`
}

// encoderTensors lists the tensors of the encoder folder in
// BertForMaskedLM's layout: "bert.*" (the pooler included when the encoder
// has one, and transformers' int64 position_ids buffer) and the
// "cls.predictions.*" head; the decoder weight is tied to the word
// embeddings and omitted, as transformers omits it from safetensors.
func (t *Pretrainer) encoderTensors() []safetensors.Tensor {
	var out []safetensors.Tensor
	for _, nt := range t.net.p.tensors() {
		if strings.HasPrefix(nt.name, headName+".") {
			continue
		}
		out = append(out, safetensors.Tensor{Name: nt.name, Shape: nt.shape, F32: nt.data})
	}
	for _, nt := range t.head.tensors() {
		out = append(out, safetensors.Tensor{Name: nt.name, Shape: nt.shape, F32: nt.data})
	}
	n := t.cfg.BERT.MaxPositionEmbeddings
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	return append(out, safetensors.Tensor{Name: bertPrefix + "embeddings.position_ids", Shape: []int{1, n}, I64: ids})
}

// SaveEncoder writes the pre-trained encoder to dir (created if needed):
// config.json (a BertConfig), model.safetensors and the tokenizer files,
// each written to a temporary file and renamed. NewFromEncoder (storyeval
// vrank train -encoder DIR) and NewPretrainer start from it.
func (t *Pretrainer) SaveEncoder(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("vrank: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, configFile), t.conf); err != nil {
		return err
	}
	for name, data := range t.tokFiles {
		if err := writeAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, weightsFile), t.encoderTensors(), map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("vrank: %s: %w", dir, err)
	}
	return nil
}

func finiteJSON(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// writeCheckpoint writes the encoder folder, Adam's moments and the state
// to root/epoch-NNN through a temporary folder renamed into place.
func (t *Pretrainer) writeCheckpoint(root string) (string, error) {
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
	if err := t.SaveEncoder(tmp); err != nil {
		return fail(err)
	}
	var moments []safetensors.Tensor
	for i, nt := range t.trainable(t.net.p, t.head) {
		moments = append(moments, safetensors.Tensor{Name: "m." + nt.name, Shape: nt.shape, F32: t.m[i]},
			safetensors.Tensor{Name: "v." + nt.name, Shape: nt.shape, F32: t.v[i]})
	}
	if err := safetensors.WriteFile(filepath.Join(tmp, optimizerFile), moments, map[string]string{"optimizer": "torch.optim.Adam"}); err != nil {
		return fail(err)
	}
	st := pretrainState{Epoch: t.epoch, AdamStep: t.adam.Step, Seed: t.opts.Seed}
	for _, h := range t.history {
		st.History = append(st.History, pretrainEpochJSON{Epoch: h.Epoch, TrainLoss: finiteJSON(h.TrainLoss),
			ValidationLoss: finiteJSON(h.ValidationLoss), ValidationAccuracy: finiteJSON(h.ValidationAccuracy)})
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
	return final, nil
}

// ResumePretrainer continues pre-training from a checkpoint: dir is one
// epoch-NNN folder or the CheckpointDir holding them (the latest is used).
// opts should be those of the interrupted run (with more Epochs to train
// longer); given the same texts, Train then reaches the weights of an
// uninterrupted run.
func ResumePretrainer(dir string, opts PretrainOptions) (*Pretrainer, error) {
	if _, err := os.Stat(filepath.Join(dir, stateFile)); err != nil {
		all := listCheckpoints(dir)
		if len(all) == 0 {
			return nil, fmt.Errorf("vrank: %s holds no pre-training checkpoint (%s)", dir, stateFile)
		}
		dir = filepath.Join(dir, all[len(all)-1])
	}
	statePath := filepath.Join(dir, stateFile)
	data, err := readSmall(statePath)
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	var st pretrainState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("vrank: %s: %w", statePath, err)
	}
	if st.Epoch < 0 || st.AdamStep < 0 {
		return nil, fmt.Errorf("vrank: %s: negative epoch or step", statePath)
	}
	t, err := NewPretrainer(dir, opts)
	if err != nil {
		return nil, err
	}
	optPath := filepath.Join(dir, optimizerFile)
	ck, err := checkpoint.Open(optPath)
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	defer ck.Close()
	for i, nt := range t.trainable(t.net.p, t.head) {
		for _, mv := range []struct {
			prefix string
			data   []float32
		}{{"m.", t.m[i]}, {"v.", t.v[i]}} {
			info, ok := ck.Info(mv.prefix + nt.name)
			if !ok || !sameShape(info.Shape, nt.shape) {
				return nil, fmt.Errorf("vrank: %s: no tensor %q of shape %v", optPath, mv.prefix+nt.name, nt.shape)
			}
			if err := ck.ReadFloat32(mv.prefix+nt.name, mv.data); err != nil {
				return nil, fmt.Errorf("vrank: %s: %w", optPath, err)
			}
		}
	}
	t.adam.Step, t.epoch = st.AdamStep, st.Epoch
	for _, h := range st.History {
		t.history = append(t.history, PretrainEpoch{Epoch: h.Epoch, TrainLoss: orNaN(h.TrainLoss),
			ValidationLoss: orNaN(h.ValidationLoss), ValidationAccuracy: orNaN(h.ValidationAccuracy)})
	}
	return t, nil
}
