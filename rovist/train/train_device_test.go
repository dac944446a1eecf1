package train

import (
	"context"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// copyingBackend is the CPU backend under another name: nn.NewDevice then
// treats it as a device, so a trainer works on the backend's own copies of
// its weights, gradients, moments and buffers (nn.Mirror) — the path of a
// GPU backend, with the CPU's kernels.
type copyingBackend struct{ compute.CPUBackend }

func (copyingBackend) Name() string { return "copying" }

// TestCoherenceTrainerOnDeviceBackend checks that
// CoherenceTrainOptions.Backend runs the whole step: two steps with
// dropout on a backend holding copies of every tensor give bit for bit
// the CPU trainer's losses, weights, gradients and moments; a backend
// without training operations is refused by name.
func TestCoherenceTrainerOnDeviceBackend(t *testing.T) {
	cfg, albertDir := fixtureALBERTConfig(t)
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		t.Fatal(err)
	}
	batch := []SOPPair{{A: "the dog ran home.", B: "it slept.", Label: 0}, {A: "she smiled.", B: "the sun rose over the hill.", Label: 1},
		{A: "a cat sat.", B: "then it left.", Label: 1}}
	run := func(be compute.Backend) (*CoherenceTrainer, []CoherenceStep) {
		tr, err := NewRandomCoherenceTrainer(cfg, tok, nil, CoherenceTrainOptions{Backend: be, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var steps []CoherenceStep
		for range 2 {
			s, err := tr.Step(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, s)
		}
		return tr, steps
	}
	cpu, want := run(nil)
	dev, got := run(copyingBackend{})
	if dev.dev.Mirror == nil {
		t.Fatal("the copying backend ran on the host slices")
	}
	if !slices.Equal(got, want) {
		t.Errorf("device steps %+v, CPU %+v", got, want)
	}
	all := func(tr *CoherenceTrainer) [][]float32 {
		return slices.Concat(nn.Values(tr.net.p.tensors()), nn.Values(tr.grads.tensors()), nn.Values(tr.m), nn.Values(tr.v))
	}
	for i, w := range all(cpu) {
		if !slices.Equal(all(dev)[i], w) {
			t.Fatalf("tensor %d (parameters, gradients, moments in walk order) differs from the CPU's", i)
		}
	}
	if _, err := NewRandomCoherenceTrainer(cfg, tok, nil, CoherenceTrainOptions{Backend: inferenceOnly{}}); err == nil || !strings.Contains(err.Error(), `"inference-only" cannot train`) {
		t.Errorf("a backend without training operations: err = %v", err)
	}
}

// TestVGTrainerOnDeviceBackend checks VGTrainOptions.Backend the same
// way: two steps (τ learnt too) on the copying backend equal the CPU
// trainer bit for bit (losses, τ, weights, gradients, moments).
func TestVGTrainerOnDeviceBackend(t *testing.T) {
	vit := t.TempDir()
	writeTinyViT(t, vit, 16, 2, 2, 24, 16, 8, 2)
	rng := rand.New(rand.NewSource(6))
	task := newSynthVG(t, rng)
	batch := task.examples(t, rng, 6, 16)
	run := func(be compute.Backend) (*VGTrainer, []VGStepResult) {
		tr, err := NewVGTrainer(filepath.Join(vit, "model.safetensors"), vit, VGTrainOptions{Backend: be, LearnTemperature: true})
		if err != nil {
			t.Fatal(err)
		}
		var steps []VGStepResult
		for range 2 {
			s, err := tr.Step(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, s)
		}
		return tr, steps
	}
	cpu, want := run(nil)
	dev, got := run(copyingBackend{})
	if dev.dev.Mirror == nil {
		t.Fatal("the copying backend ran on the host slices")
	}
	if !slices.Equal(got, want) || dev.Temperature() != cpu.Temperature() {
		t.Errorf("device steps %+v τ %v, CPU %+v τ %v", got, dev.Temperature(), want, cpu.Temperature())
	}
	all := func(tr *VGTrainer) [][]float32 {
		return slices.Concat(nn.Values(tr.net.p.tensors()), nn.Values(tr.grads.tensors()), nn.Values(tr.m), nn.Values(tr.v))
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
