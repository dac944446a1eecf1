package train

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/safetensors"
	"github.com/storyeval/storyeval/internal/trainckpt"
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
	for _, nt := range t.net.p.encoderTensors() {
		out = append(out, safetensors.Tensor{Name: nt.Name, Shape: nt.Shape, F32: nt.Data})
	}
	for _, nt := range t.head.tensors() {
		out = append(out, safetensors.Tensor{Name: nt.Name, Shape: nt.Shape, F32: nt.Data})
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
// each written to a temporary file and renamed. vrank.NewFromEncoder (storyeval
// vrank train -encoder DIR) and NewPretrainer start from it.
func (t *Pretrainer) SaveEncoder(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"config.json": t.conf}
	for name, data := range t.tokFiles {
		files[name] = data
	}
	for name, data := range files {
		err := safetensors.AtomicWrite(filepath.Join(dir, name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := safetensors.WriteFile(filepath.Join(dir, "model.safetensors"), t.encoderTensors(), map[string]string{"format": "pt"}); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// writeCheckpoint writes the encoder folder, Adam's moments and the state
// to root/epoch-NNN through a temporary folder renamed into place.
func (t *Pretrainer) writeCheckpoint(root string) (string, error) {
	st := pretrainState{Epoch: t.epoch, AdamStep: t.adam.Step, Seed: t.opts.Seed}
	for _, h := range t.history {
		st.History = append(st.History, pretrainEpochJSON{Epoch: h.Epoch, TrainLoss: trainckpt.Finite(h.TrainLoss),
			ValidationLoss: trainckpt.Finite(h.ValidationLoss), ValidationAccuracy: trainckpt.Finite(h.ValidationAccuracy)})
	}
	final, err := trainckpt.WriteEpoch(root, t.epoch, t.SaveEncoder, t.moments(), st)
	if err != nil {
		return "", fmt.Errorf("checkpoint %s: %w", final, err)
	}
	return final, nil
}

// moments pairs Adam's moments with the trainable tensors, as trainckpt
// writes and reads them.
func (t *Pretrainer) moments() []trainckpt.Moment {
	ts := t.trainable(t.net.p, t.head)
	return trainckpt.Moments(len(ts), func(i int) trainckpt.Moment {
		return trainckpt.Moment{Name: ts[i].Name, Shape: ts[i].Shape, M: t.m[i].Data, V: t.v[i].Data}
	})
}

// ResumePretrainer continues pre-training from a checkpoint: dir is one
// epoch-NNN folder or the CheckpointDir holding them (the latest is used).
// opts should be those of the interrupted run (with more Epochs to train
// longer); given the same texts, Train then reaches the weights of an
// uninterrupted run.
func ResumePretrainer(dir string, opts PretrainOptions) (*Pretrainer, error) {
	var st pretrainState
	dir, err := trainckpt.ReadLatest(dir, "pre-training", &st)
	if err != nil {
		return nil, err
	}
	if st.Epoch < 0 || st.AdamStep < 0 {
		return nil, fmt.Errorf("%s: negative epoch or step", filepath.Join(dir, trainckpt.StateFile))
	}
	t, err := NewPretrainer(dir, opts)
	if err != nil {
		return nil, err
	}
	if err := trainckpt.ReadMoments(dir, t.moments(), openTensors); err != nil {
		return nil, err
	}
	t.adam.Step, t.epoch = st.AdamStep, st.Epoch
	for _, h := range st.History {
		t.history = append(t.history, PretrainEpoch{Epoch: h.Epoch, TrainLoss: trainckpt.Or(h.TrainLoss, math.NaN()),
			ValidationLoss: trainckpt.Or(h.ValidationLoss, math.NaN()), ValidationAccuracy: trainckpt.Or(h.ValidationAccuracy, math.NaN())})
	}
	return t, nil
}
