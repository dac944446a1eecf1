package train

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// copyingBackend is the CPU backend under another name: NewDevice then
// treats it as a device, so the trainer works on the backend's own copies
// of its weights, gradients, moments and buffers (nn.Mirror) and copies
// them back after each step — the path of a GPU backend, with the CPU's
// kernels.
type copyingBackend struct{ compute.CPUBackend }

func (copyingBackend) Name() string { return "copying" }

// TestTrainerOnDeviceBackend checks that Options.Backend runs the whole
// step: three steps (encoder and head dropout on) on a backend that holds
// copies of every tensor give bit for bit the CPU trainer's losses,
// predictions, weights, gradients and moments; and that a backend without
// training operations is refused by name.
func TestTrainerOnDeviceBackend(t *testing.T) {
	m := tinyModel(t, 3)
	pairs := syntheticPairs(rand.New(rand.NewSource(4)), 8)
	run := func(be compute.Backend) (*Trainer, []StepResult) {
		tr, err := NewTrainer(m, Options{Backend: be})
		if err != nil {
			t.Fatal(err)
		}
		var rs []StepResult
		for i := range 3 {
			r, err := tr.Step(context.Background(), pairs[i*2:i*2+4])
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return tr, rs
	}
	cpu, want := run(nil)
	dev, got := run(copyingBackend{})
	if dev.dev.Mirror == nil {
		t.Fatal("the copying backend ran on the host slices")
	}
	for i := range want {
		if got[i].Loss != want[i].Loss || !slices.Equal(got[i].Predictions, want[i].Predictions) {
			t.Errorf("step %d: device loss %v predictions %v, CPU %v %v", i, got[i].Loss, got[i].Predictions, want[i].Loss, want[i].Predictions)
		}
	}
	for _, name := range cpu.ParameterNames() {
		if !slices.Equal(dev.Parameter(name), cpu.Parameter(name)) || !slices.Equal(dev.Gradient(name), cpu.Gradient(name)) {
			t.Errorf("%s: the device trainer's weight or gradient differs from the CPU's", name)
		}
	}
	for i := range cpu.opt.m {
		if !slices.Equal(dev.opt.m[i].Data, cpu.opt.m[i].Data) || !slices.Equal(dev.opt.v[i].Data, cpu.opt.v[i].Data) {
			t.Errorf("%s: the device trainer's Adam moments differ from the CPU's", cpu.opt.m[i].Name)
		}
	}
	if _, err := NewTrainer(m, Options{Backend: inferenceOnly{}}); err == nil || !strings.Contains(err.Error(), `"inference-only" cannot train`) {
		t.Errorf("a backend without training operations: err = %v", err)
	}
}

// TestPretrainerOnDeviceBackend checks PretrainOptions.Backend the same
// way: two masked-LM steps with dropout on the copying backend equal the
// CPU pre-trainer bit for bit (losses, weights, gradients, moments).
func TestPretrainerOnDeviceBackend(t *testing.T) {
	words := []string{"red", "blue", "green", "apple", "sky", "grass"}
	dir := t.TempDir()
	vocab := append([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, words...)
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(vocab, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := tinyBERT(len(vocab))
	texts := []string{"red apple blue sky", "green grass red apple", "blue sky green grass red", "apple sky grass"}
	run := func(be compute.Backend) (*Pretrainer, []PretrainStep) {
		pt, err := NewRandomPretrainer(cfg, dir, PretrainOptions{Backend: be, Seed: 5, MaskProbability: 0.4})
		if err != nil {
			t.Fatal(err)
		}
		var steps []PretrainStep
		for range 2 {
			s, err := pt.Step(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, s)
		}
		return pt, steps
	}
	cpu, want := run(nil)
	dev, got := run(copyingBackend{})
	if dev.dev.Mirror == nil || want[0].Selected == 0 {
		t.Fatalf("device path not taken (mirror %v) or no token selected", dev.dev.Mirror)
	}
	if !slices.Equal(got, want) {
		t.Errorf("device steps %+v, CPU %+v", got, want)
	}
	all := func(pt *Pretrainer) [][]float32 {
		return slices.Concat(nn.Values(pt.trainable(pt.net.p, pt.head)), nn.Values(pt.trainable(pt.grads, pt.gHead)), nn.Values(pt.m), nn.Values(pt.v))
	}
	for i, w := range all(cpu) {
		if !slices.Equal(all(dev)[i], w) {
			t.Fatalf("tensor %d (parameters, gradients, moments) differs from the CPU's", i)
		}
	}
}

// inferenceOnly is a compute.Backend without the training operations.
type inferenceOnly struct{ compute.Backend }

func (inferenceOnly) Name() string { return "inference-only" }
