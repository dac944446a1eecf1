package encoders

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
	"gorgonia.org/tensor"
)

// failingBackend is the CPU backend with a device's failure mode: a tensor
// of more than max values cannot be allocated, and, as the CUDA backend
// does (its operations return no error), the failure is kept and reported
// by Err (compute.Failer) until ResetErr. The operations keep running on
// the CPU, so only Err can tell the encoders that something failed.
type failingBackend struct {
	compute.Backend
	max int

	mu    sync.Mutex
	err   error
	freed int
}

func newFailingBackend(max int) *failingBackend {
	return &failingBackend{Backend: compute.CPU(), max: max}
}

func (b *failingBackend) Name() string { return "fake-gpu" }

func (b *failingBackend) check(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.max && b.err == nil {
		b.err = fmt.Errorf("alloc of %d values: %w", n, compute.ErrOutOfMemory)
	}
}

func (b *failingBackend) Alloc(n int) compute.Tensor { b.check(n); return b.Backend.Alloc(n) }
func (b *failingBackend) Upload(d []float32) compute.Tensor {
	b.check(len(d))
	return b.Backend.Upload(d)
}
func (b *failingBackend) Free(t compute.Tensor) {
	b.mu.Lock()
	b.freed++
	b.mu.Unlock()
	b.Backend.Free(t)
}

func (b *failingBackend) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

func (b *failingBackend) ResetErr() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.err
	b.err = nil
	return err
}

// Tiny models' largest weight is the 50×8 word embedding (400 values); a
// batch of 8 sequences of 4 tokens needs 8·4·16 = 512 values for the
// feed-forward activations, 8 images 8·5·16 = 640.
const failingMax = 450

var (
	tinyBERTConfig = BERTConfig{VocabSize: 50, HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2,
		IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	tinyALBERTConfig = ALBERTConfig{VocabSize: 50, EmbeddingSize: 4, HiddenSize: 8, NumHiddenLayers: 2, NumAttentionHeads: 2,
		IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	tinyViTConfig = ViTConfig{HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2, IntermediateSize: 16, ImageSize: 8, PatchSize: 4}
)

func tinyCLIPConfig() CLIPConfig {
	tower := CLIPTowerConfig{HiddenSize: 8, IntermediateSize: 16, NumHiddenLayers: 1, NumAttentionHeads: 2}
	text, vision := tower, tower
	text.VocabSize, text.MaxPositionEmbeddings = 50, 16
	vision.ImageSize, vision.PatchSize = 8, 4
	return CLIPConfig{TextConfig: text, VisionConfig: vision, ProjectionDim: 6}
}

// forwardCase runs one model's forward pass on n sequences (or images) and
// returns its main output and the model's Close.
type forwardCase struct {
	name string
	// batch is how the error names the batch of 8: "8 × length".
	batch string
	run   func(o Options, n int) (*tensor.Dense, func() error, error)
}

func forwardCases() []forwardCase {
	ctx := context.Background()
	encs := func(n int) []tokenize.Encoding {
		out := make([]tokenize.Encoding, n)
		for i := range out {
			out[i] = enc(1, 2+i, 3, 4)
		}
		return out
	}
	imgs := func(n int) []imageproc.PixelValues {
		out := make([]imageproc.PixelValues, n)
		for i := range out {
			out[i] = image(3, 8, 8)
			for j := range out[i].Data {
				out[i].Data[j] = float32((i+j)%7) / 7
			}
		}
		return out
	}
	return []forwardCase{
		{"BERT", "8 × 4", func(o Options, n int) (*tensor.Dense, func() error, error) {
			m, err := NewBERTFrom(tinyBERTConfig, RandomWeights(1), o)
			if err != nil {
				return nil, nil, err
			}
			out, err := m.Forward(ctx, encs(n), ForwardOptions{})
			if err != nil {
				return nil, m.Close, err
			}
			return out.LastHiddenState, m.Close, nil
		}},
		{"ALBERT", "8 × 4", func(o Options, n int) (*tensor.Dense, func() error, error) {
			m, err := NewALBERTFrom(tinyALBERTConfig, RandomWeights(2), o)
			if err != nil {
				return nil, nil, err
			}
			out, err := m.Forward(ctx, encs(n), ForwardOptions{})
			if err != nil {
				return nil, m.Close, err
			}
			return out.LastHiddenState, m.Close, nil
		}},
		{"ViT", "8 × 5", func(o Options, n int) (*tensor.Dense, func() error, error) {
			m, err := NewViTFrom(tinyViTConfig, RandomWeights(3), o)
			if err != nil {
				return nil, nil, err
			}
			out, err := m.Forward(ctx, imgs(n), ForwardOptions{})
			if err != nil {
				return nil, m.Close, err
			}
			return out.LastHiddenState, m.Close, nil
		}},
		{"CLIP text", "8 × 4", func(o Options, n int) (*tensor.Dense, func() error, error) {
			m, err := NewCLIPFrom(tinyCLIPConfig(), RandomWeights(4), o)
			if err != nil {
				return nil, nil, err
			}
			out, err := m.EncodeText(ctx, encs(n), ForwardOptions{})
			if err != nil {
				return nil, m.Close, err
			}
			return out.Embeds, m.Close, nil
		}},
		{"CLIP vision", "8 × 5", func(o Options, n int) (*tensor.Dense, func() error, error) {
			m, err := NewCLIPFrom(tinyCLIPConfig(), RandomWeights(4), o)
			if err != nil {
				return nil, nil, err
			}
			out, err := m.EncodeImages(ctx, imgs(n), ForwardOptions{})
			if err != nil {
				return nil, m.Close, err
			}
			return out.Embeds, m.Close, nil
		}},
	}
}

// TestForwardReportsBackendFailure checks that a failure a backend keeps
// during a forward pass (out of memory on a batch too large) comes back as
// the forward's error, naming the model and the batch and matching
// compute.ErrOutOfMemory, and that after ResetErr the caller's retry with a
// smaller batch gives the CPU's values.
func TestForwardReportsBackendFailure(t *testing.T) {
	for _, c := range forwardCases() {
		fb := newFailingBackend(failingMax)
		_, _, err := c.run(Options{Backend: fb}, 8)
		if err == nil {
			t.Errorf("%s: a batch of 8 on a backend that ran out of memory succeeded", c.name)
			continue
		}
		want := c.name + " forward pass on a batch of " + c.batch + " on fake-gpu"
		if !strings.Contains(err.Error(), want) || !errors.Is(err, compute.ErrOutOfMemory) {
			t.Errorf("%s: error %q: want it to contain %q and match compute.ErrOutOfMemory", c.name, err, want)
		}
		if compute.ResetErr(fb) == nil {
			t.Errorf("%s: the backend kept no failure", c.name)
		}
		got, closeModel, err := c.run(Options{Backend: fb}, 1)
		if err != nil {
			t.Errorf("%s: retry with 1: %v", c.name, err)
			continue
		}
		want1, _, err := c.run(Options{}, 1)
		if err != nil {
			t.Fatalf("%s on the CPU: %v", c.name, err)
		}
		if !slices.Equal(dense.Data(got).([]float32), dense.Data(want1).([]float32)) {
			t.Errorf("%s: the retry's output differs from the CPU's", c.name)
		}
		before := fb.freed
		if err := closeModel(); err != nil {
			t.Errorf("%s: Close: %v", c.name, err)
		}
		if fb.freed == before {
			t.Errorf("%s: Close freed no weights", c.name)
		}
		after := fb.freed
		_ = closeModel()
		if fb.freed != after {
			t.Errorf("%s: a second Close freed %d tensors again", c.name, fb.freed-after)
		}
	}
}

// TestLoadReportsUploadFailure checks that a model whose weights do not
// fit the device fails to build, with an error saying so.
func TestLoadReportsUploadFailure(t *testing.T) {
	for _, c := range forwardCases() {
		fb := newFailingBackend(100)
		_, _, err := c.run(Options{Backend: fb}, 1)
		if err == nil || !strings.Contains(err.Error(), "uploading the weights to fake-gpu") || !errors.Is(err, compute.ErrOutOfMemory) {
			t.Errorf("%s: weights too large for the device: error %v", c.name, err)
		}
	}
	fb := newFailingBackend(10)
	if _, err := NewLinear(make([]float32, 24), nil, 3, 8, Options{Backend: fb}); err == nil || !errors.Is(err, compute.ErrOutOfMemory) {
		t.Errorf("NewLinear of 24 weights on a device of 10: error %v", err)
	}
}

// TestLinearReportsBackendFailure checks the heads applied on the host's
// behalf (Linear.ApplyRows) report a failure with the rows.
func TestLinearReportsBackendFailure(t *testing.T) {
	fb := newFailingBackend(30)
	l, err := NewLinear(make([]float32, 24), nil, 3, 8, Options{Backend: fb})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.ApplyRows(make([]float32, 8*2)); err != nil {
		t.Fatalf("2 rows: %v", err)
	}
	_, err = l.ApplyRows(make([]float32, 8*5))
	if err == nil || !strings.Contains(err.Error(), "linear on 5 rows of 8 on fake-gpu") || !errors.Is(err, compute.ErrOutOfMemory) {
		t.Errorf("5 rows (40 inputs) on a device of 30: error %v", err)
	}
}
