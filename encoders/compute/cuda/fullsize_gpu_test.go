package cuda_test

import (
	"context"
	"math"
	"math/rand"
	"os"
	"testing"
	"time"

	"gorgonia.org/tensor"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
)

// The full-size architectures of issue 22's speed comparison, with random
// weights (encoders.RandomWeights): their forward passes on the GPU
// against the CPU backend (TestGPUFullSize*), and their throughput
// (BenchmarkGPU*, the same shapes as scripts/cuda_check_torch_speed.py).

var (
	bertBase = encoders.BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
		HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	albertLarge = encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: 24, NumAttentionHeads: 16,
		IntermediateSize: 4096, HiddenAct: "gelu_new", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	vitB16 = encoders.ViTConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072, HiddenAct: "gelu",
		ImageSize: 224, PatchSize: 16, NumChannels: 3, LayerNormEps: 1e-12}
	clipB32 = encoders.CLIPConfig{ProjectionDim: 512,
		TextConfig: encoders.CLIPTowerConfig{VocabSize: 49408, HiddenSize: 512, NumHiddenLayers: 12, NumAttentionHeads: 8,
			IntermediateSize: 2048, MaxPositionEmbeddings: 77, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
		VisionConfig: encoders.CLIPTowerConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
			ImageSize: 224, PatchSize: 32, NumChannels: 3, HiddenAct: "quick_gelu", LayerNormEps: 1e-5}}
)

// backend opens GPU 0 as a backend, or skips (fails with
// STORYEVAL_REQUIRE_CUDA=1).
func backend(tb testing.TB, o cuda.Options) *cuda.Backend {
	tb.Helper()
	b, err := cuda.NewBackend(o)
	if err != nil {
		if os.Getenv("STORYEVAL_REQUIRE_CUDA") == "1" {
			tb.Fatalf("STORYEVAL_REQUIRE_CUDA=1 but: %v", err)
		}
		tb.Skipf("no usable GPU: %v", err)
	}
	tb.Cleanup(func() {
		if err := b.Err(); err != nil {
			tb.Errorf("backend: %v", err)
		}
		_ = b.Close()
	})
	return b
}

func randomEncodings(batch, seq, vocab int, seed int64) []tokenize.Encoding {
	rng := rand.New(rand.NewSource(seed))
	encs := make([]tokenize.Encoding, batch)
	for b := range encs {
		e := tokenize.Encoding{IDs: make([]int, seq), TypeIDs: make([]int, seq), AttentionMask: make([]int, seq), Tokens: make([]string, seq)}
		for i := range e.IDs {
			e.IDs[i] = rng.Intn(vocab)
			// The last sequence is half padding: the mask takes part.
			if b < batch-1 || i < seq/2 {
				e.AttentionMask[i] = 1
			}
		}
		encs[b] = e
	}
	return encs
}

func randomImages(batch, size int, seed int64) []imageproc.PixelValues {
	rng := rand.New(rand.NewSource(seed))
	imgs := make([]imageproc.PixelValues, batch)
	for b := range imgs {
		d := make([]float32, 3*size*size)
		for i := range d {
			d[i] = float32(rng.NormFloat64())
		}
		imgs[b] = imageproc.PixelValues{Channels: 3, Height: size, Width: size, Data: d}
	}
	return imgs
}

// same fails the test when got and want differ by more than tol (absolute,
// on LayerNorm-scaled outputs).
func same(t *testing.T, what string, got, want *tensor.Dense, tol float64) {
	t.Helper()
	g, w := dense.Data(got).([]float32), dense.Data(want).([]float32)
	if len(g) != len(w) {
		t.Fatalf("%s: %d values, want %d", what, len(g), len(w))
	}
	worst := 0.0
	for i := range w {
		d := math.Abs(float64(g[i]) - float64(w[i]))
		if d > worst || math.IsNaN(d) {
			worst = d
		}
	}
	t.Logf("%s: %d values, largest difference from the CPU backend %.3g", what, len(w), worst)
	if worst > tol || math.IsNaN(worst) {
		t.Errorf("%s: largest difference %.3g > %g", what, worst, tol)
	}
}

// fullSizeTol is the largest difference from the CPU backend accepted on
// the full-size models' outputs: the goldens' tolerance against PyTorch.
const fullSizeTol = 1e-4

func TestGPUFullSizeMatchesCPU(t *testing.T) {
	be := backend(t, cuda.Options{})
	ctx := context.Background()
	gpu := encoders.Options{Backend: be}
	t.Run("BERT-base", func(t *testing.T) {
		encs := randomEncodings(2, 128, bertBase.VocabSize, 2)
		var outs [2]*encoders.TextOutput
		for i, o := range []encoders.Options{{}, gpu} {
			m, err := encoders.NewBERTFrom(bertBase, encoders.RandomWeights(1), o)
			if err != nil {
				t.Fatal(err)
			}
			if outs[i], err = m.Forward(ctx, encs, encoders.ForwardOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		same(t, "BERT-base last hidden state", outs[1].LastHiddenState, outs[0].LastHiddenState, fullSizeTol)
		same(t, "BERT-base pooler", outs[1].PoolerOutput, outs[0].PoolerOutput, fullSizeTol)
	})
	t.Run("ALBERT-large", func(t *testing.T) {
		encs := randomEncodings(2, 128, albertLarge.VocabSize, 2)
		var outs [2]*encoders.ALBERTOutput
		for i, o := range []encoders.Options{{}, gpu} {
			m, err := encoders.NewALBERTFrom(albertLarge, encoders.RandomWeights(1), o)
			if err != nil {
				t.Fatal(err)
			}
			if outs[i], err = m.Forward(ctx, encs, encoders.ForwardOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		same(t, "ALBERT-large last hidden state", outs[1].LastHiddenState, outs[0].LastHiddenState, fullSizeTol)
	})
	t.Run("ViT-B/16", func(t *testing.T) {
		imgs := randomImages(2, 224, 2)
		var outs [2]*encoders.ImageOutput
		for i, o := range []encoders.Options{{}, gpu} {
			m, err := encoders.NewViTFrom(vitB16, encoders.RandomWeights(1), o)
			if err != nil {
				t.Fatal(err)
			}
			if outs[i], err = m.Forward(ctx, imgs, encoders.ForwardOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		same(t, "ViT-B/16 last hidden state", outs[1].LastHiddenState, outs[0].LastHiddenState, fullSizeTol)
	})
	t.Run("CLIP-B/32", func(t *testing.T) {
		imgs, encs := randomImages(2, 224, 2), randomEncodings(2, 77, 49408, 3)
		var img, txt [2]*encoders.CLIPOutput
		for i, o := range []encoders.Options{{}, gpu} {
			m, err := encoders.NewCLIPFrom(clipB32, encoders.RandomWeights(1), o)
			if err != nil {
				t.Fatal(err)
			}
			if img[i], err = m.EncodeImages(ctx, imgs, encoders.ForwardOptions{}); err != nil {
				t.Fatal(err)
			}
			if txt[i], err = m.EncodeText(ctx, encs, encoders.ForwardOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		same(t, "CLIP image features", img[1].Features, img[0].Features, fullSizeTol)
		same(t, "CLIP text features", txt[1].Features, txt[0].Features, fullSizeTol)
	})
}

// throughput runs f (one batch of items) after a warm-up and reports
// items/s.
func throughput(b *testing.B, items int, f func() error) {
	b.Helper()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start, n := time.Now(), 0
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	sec := time.Since(start).Seconds() / float64(n)
	b.ReportMetric(sec*1e3, "ms/batch")
	b.ReportMetric(float64(items)/sec, "items/s")
}

func benchModes(b *testing.B, run func(b *testing.B, o cuda.Options)) {
	for _, m := range []struct {
		name string
		o    cuda.Options
	}{{"float32", cuda.Options{}}, {"tf32", cuda.Options{TF32: true}}, {"bf16", cuda.Options{BF16: true}}} {
		b.Run(m.name, func(b *testing.B) { run(b, m.o) })
	}
}

func BenchmarkGPUViTB16x256(b *testing.B) {
	benchModes(b, func(b *testing.B, o cuda.Options) {
		m, err := encoders.NewViTFrom(vitB16, encoders.RandomWeights(1), encoders.Options{Backend: backend(b, o)})
		if err != nil {
			b.Fatal(err)
		}
		imgs := randomImages(256, 224, 2)
		throughput(b, 256, func() error { _, err := m.Forward(context.Background(), imgs, encoders.ForwardOptions{}); return err })
	})
}

func BenchmarkGPUCLIPB32Images256(b *testing.B) {
	benchModes(b, func(b *testing.B, o cuda.Options) {
		m, err := encoders.NewCLIPFrom(clipB32, encoders.RandomWeights(1), encoders.Options{Backend: backend(b, o)})
		if err != nil {
			b.Fatal(err)
		}
		imgs := randomImages(256, 224, 2)
		throughput(b, 256, func() error {
			_, err := m.EncodeImages(context.Background(), imgs, encoders.ForwardOptions{})
			return err
		})
	})
}

func BenchmarkGPUALBERTLarge64x128(b *testing.B) {
	benchModes(b, func(b *testing.B, o cuda.Options) {
		m, err := encoders.NewALBERTFrom(albertLarge, encoders.RandomWeights(1), encoders.Options{Backend: backend(b, o)})
		if err != nil {
			b.Fatal(err)
		}
		encs := randomEncodings(64, 128, albertLarge.VocabSize, 2)
		throughput(b, 64, func() error { _, err := m.Forward(context.Background(), encs, encoders.ForwardOptions{}); return err })
	})
}

func BenchmarkGPUBERTBase32x512(b *testing.B) {
	benchModes(b, func(b *testing.B, o cuda.Options) {
		m, err := encoders.NewBERTFrom(bertBase, encoders.RandomWeights(1), encoders.Options{Backend: backend(b, o)})
		if err != nil {
			b.Fatal(err)
		}
		encs := randomEncodings(32, 512, bertBase.VocabSize, 2)
		throughput(b, 32, func() error { _, err := m.Forward(context.Background(), encs, encoders.ForwardOptions{}); return err })
	})
}
