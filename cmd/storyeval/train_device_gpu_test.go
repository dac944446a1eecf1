package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/device"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/rovist"
	rovisttrain "github.com/storyeval/storyeval/rovist/train"
	"github.com/storyeval/storyeval/vrank"
	vranktrain "github.com/storyeval/storyeval/vrank/train"
)

// The trainers' steps on CUDA against the CPU: the bound, 1e-5
// relative (absolute below 1), on the loss, the predictions, every
// gradient the trainer exposes and every updated weight. They skip
// without a usable GPU and fail with STORYEVAL_REQUIRE_CUDA=1 (the
// prepared GPU check's train-step-cuda step).

const trainStepTol = 1e-5

// openCUDA opens GPU 0 for a test, or skips (fails when required).
func openCUDA(t *testing.T) compute.Backend {
	t.Helper()
	be, c, err := device.Open("cuda", cuda.Options{})
	if err != nil {
		if os.Getenv("STORYEVAL_REQUIRE_CUDA") == "1" {
			t.Fatalf("STORYEVAL_REQUIRE_CUDA=1 but: %v", err)
		}
		t.Skipf("no usable GPU: %v", err)
	}
	t.Cleanup(func() {
		if err := compute.Err(be); err != nil {
			t.Errorf("backend error: %v", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("closing the GPU: %v", err)
		}
	})
	return be
}

// withinStep fails the test at the first value of got off want by more than
// trainStepTol·max(1, |want|).
func withinStep[T float32 | float64](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values on CUDA, %d on the CPU", what, len(got), len(want))
	}
	for i := range want {
		w := float64(want[i])
		if d := math.Abs(float64(got[i]) - w); !(d <= trainStepTol*math.Max(1, math.Abs(w))) {
			t.Fatalf("%s: value %d is %v on CUDA, %v on the CPU", what, i, got[i], want[i])
		}
	}
}

// TestGPUVrankTrainerStepMatchesCPU runs one Vrank fine-tuning step
// (dropout on, the paper's setting) from the fixture's model on both
// backends.
func TestGPUVrankTrainerStepMatchesCPU(t *testing.T) {
	be := openCUDA(t)
	m, err := vrank.Load(vrankTestModel)
	if err != nil {
		t.Fatal(err)
	}
	batch := []vranktrain.Pair{{Story1: "the family went to the beach .", Story2: "we had fun .", Gap: 1.5},
		{Story1: "a dog ran .", Story2: "the party was great and everyone smiled .", Gap: -0.75},
		{Story1: "it rained all day .", Story2: "they stayed home .", Gap: 0.25}}
	run := func(b compute.Backend) (*vranktrain.Trainer, vranktrain.StepResult) {
		tr, err := vranktrain.NewTrainer(m, vranktrain.Options{Backend: b, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tr.Step(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		return tr, r
	}
	cpu, want := run(nil)
	gpu, got := run(be)
	withinStep(t, "loss", []float64{got.Loss}, []float64{want.Loss})
	withinStep(t, "predictions", got.Predictions, want.Predictions)
	for _, name := range cpu.ParameterNames() {
		withinStep(t, "gradient of "+name, gpu.Gradient(name), cpu.Gradient(name))
		withinStep(t, "updated "+name, gpu.Parameter(name), cpu.Parameter(name))
	}
	t.Logf("loss %v on CUDA, %v on the CPU; %d tensors compared", got.Loss, want.Loss, len(cpu.ParameterNames()))
}

// TestGPUCoherenceTrainerStepMatchesCPU runs one RoViST-C step from the
// fixture's checkpoint on both backends and compares the loss, the
// accuracy and the updated ALBERT weights.
func TestGPUCoherenceTrainerStepMatchesCPU(t *testing.T) {
	be := openCUDA(t)
	dir := e2efixtures.Metric("rovist_c")
	ckpt, albert := e2efixtures.FindOne(t, dir, "*.pth.tar"), e2efixtures.FindDirWith(t, dir, "spiece.model")
	batch := []rovisttrain.SOPPair{{A: "the dog ran home.", B: "it slept.", Label: 0}, {A: "she smiled.", B: "the sun rose over the hill.", Label: 1},
		{A: "a cat sat.", B: "then it left.", Label: 1}}
	run := func(b compute.Backend) (rovisttrain.CoherenceStep, [][]float32) {
		tr, err := rovisttrain.NewCoherenceTrainer(ckpt, albert, rovisttrain.CoherenceTrainOptions{Backend: b, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		s, err := tr.Step(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		model, err := tr.Model()
		if err != nil {
			t.Fatal(err)
		}
		var ws [][]float32
		for _, p := range model.Encoder().Params() {
			ws = append(ws, p.Data)
		}
		return s, ws
	}
	want, wantW := run(nil)
	got, gotW := run(be)
	withinStep(t, "loss, accuracy", []float64{got.Loss, got.Accuracy}, []float64{want.Loss, want.Accuracy})
	for i := range wantW {
		withinStep(t, "updated ALBERT weights", gotW[i], wantW[i])
	}
	t.Logf("loss %v on CUDA, %v on the CPU; %d tensors compared", got.Loss, want.Loss, len(wantW))
}

// TestGPUVGTrainerStepMatchesCPU runs two RoViST-VG steps (τ learnt too)
// on the fixture's original training batch (symloss/batch.json) from its
// checkpoint on both backends and compares the losses, τ and the updated
// ViT weights.
func TestGPUVGTrainerStepMatchesCPU(t *testing.T) {
	be := openCUDA(t)
	dir := e2efixtures.Metric("rovist_vg")
	data, err := os.ReadFile(filepath.Join(dir, "symloss", "batch.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Rows []struct {
			ImageID    json.Number `json:"image_id"`
			BBox       string      `json:"bbox"`
			File       string      `json:"file"`
			NounPhrase string      `json:"noun_phrase"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(data, &b); err != nil || len(b.Rows) == 0 {
		t.Fatalf("symloss/batch.json: %v, %d rows", err, len(b.Rows))
	}
	pairs := make([]rovist.VGPair, len(b.Rows))
	for i, r := range b.Rows {
		pairs[i] = rovist.VGPair{ImageID: r.ImageID.String(), BBox: r.BBox, Phrase: r.NounPhrase}
	}
	g, err := rovist.LoadGloVe(e2efixtures.FindOne(t, dir, "glove*.txt"), rovist.VGPhraseWords(pairs), rovist.GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	examples, err := rovist.VGExamples(pairs, rovist.CropFolder{Dir: filepath.Dir(filepath.Join(dir, b.Rows[0].File))}, g)
	if err != nil {
		t.Fatal(err)
	}
	ckpt, vit := e2efixtures.FindOne(t, dir, "*.pth.tar"), e2efixtures.FindDirWith(t, dir, "preprocessor_config.json")
	run := func(be compute.Backend) ([]float64, [][]float32) {
		tr, err := rovisttrain.NewVGTrainer(ckpt, vit, rovisttrain.VGTrainOptions{Backend: be, LearnTemperature: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for range 2 {
			s, err := tr.Step(context.Background(), examples)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s.Loss)
		}
		m, err := tr.GroundingModel()
		if err != nil {
			t.Fatal(err)
		}
		var ws [][]float32
		for _, p := range m.Encoder().Params() {
			ws = append(ws, p.Data)
		}
		return append(out, tr.Temperature()), ws
	}
	want, wantW := run(nil)
	got, gotW := run(be)
	withinStep(t, "losses of two steps, τ", got, want)
	for i := range wantW {
		withinStep(t, "updated ViT weights", gotW[i], wantW[i])
	}
	t.Logf("losses and τ %v on CUDA, %v on the CPU; %d tensors compared", got, want, len(wantW))
}

// TestGPUPretrainerStepMatchesCPU runs two masked-LM steps (dropout on)
// of a small random BERT with the fixture's WordPiece vocabulary on both
// backends and compares the losses and the tokens selected.
func TestGPUPretrainerStepMatchesCPU(t *testing.T) {
	be := openCUDA(t)
	vocabDir := vrankTestModel
	m, err := vrank.Load(vocabDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config().BERT
	texts := []string{"the family went to the beach and had fun .", "a dog ran to the park .", "it rained all day so they stayed home .", "we took pictures of the sun ."}
	run := func(be compute.Backend) []float64 {
		pt, err := vranktrain.NewRandomPretrainer(cfg, vocabDir, vranktrain.PretrainOptions{Backend: be, Seed: 5, MaskProbability: 0.4})
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for range 2 {
			s, err := pt.Step(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s.Loss, float64(s.Selected))
		}
		return out
	}
	want := run(nil)
	got := run(be)
	withinStep(t, "losses and selected tokens of two steps", got, want)
	t.Logf("%v on CUDA, %v on the CPU", got, want)
}
