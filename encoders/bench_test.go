package encoders

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// Full-size benchmarks with random weights, the shapes of
// fixtures/encoders/torch_speed.json (PyTorch 1.13, 2 threads, on this
// machine: BERT-base 8×128 ≈ 2.6 s, ALBERT-large 8×128 ≈ 7.0 s, ViT-B/16 8
// images ≈ 3.3 s, CLIP B/32 8 images ≈ 1.2 s, 8×77 texts ≈ 1.1 s). Run:
//
//	go test -run='^$' -bench=FullSize -benchtime=3x ./encoders/
//	CGO_LDFLAGS=-lopenblas go test -tags openblas -run='^$' -bench=FullSize -benchtime=3x ./encoders/

func randomReader(seed int64) *weightReader {
	r, err := RandomWeights(seed).reader(compute.CPU(), "")
	if err != nil {
		panic(err) // random weights have no missing parameter
	}
	return r
}

func randomEncodings(batch, seq, vocab int, seed int64) []tokenize.Encoding {
	rng := rand.New(rand.NewSource(seed))
	encs := make([]tokenize.Encoding, batch)
	for b := range encs {
		e := tokenize.Encoding{IDs: make([]int, seq), TypeIDs: make([]int, seq), AttentionMask: make([]int, seq), Tokens: make([]string, seq)}
		for i := range e.IDs {
			e.IDs[i] = rng.Intn(vocab)
			e.AttentionMask[i] = 1
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

// runForward times f per iteration and reports GFLOP/s.
func runForward(b *testing.B, flops float64, f func() error) {
	b.Helper()
	if err := f(); err != nil { // warm-up, as the PyTorch figures
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	n := 0
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	sec := time.Since(start).Seconds() / float64(n)
	b.ReportMetric(sec*1e3, "ms/batch")
	b.ReportMetric(flops/sec/1e9, "GFLOP/s")
}

func BenchmarkFullSizeBERTBase8x128(b *testing.B) {
	cfg := BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
		HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	m, err := newBERT(cfg, randomReader(1))
	if err != nil {
		b.Fatal(err)
	}
	encs := randomEncodings(8, 128, cfg.VocabSize, 2)
	runForward(b, m.FLOPs(8, 128), func() error { _, err := m.Forward(context.Background(), encs, ForwardOptions{}); return err })
}

func BenchmarkFullSizeALBERTLarge8x128(b *testing.B) {
	cfg := ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: 24, NumAttentionHeads: 16,
		IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	m, err := newALBERT(cfg, randomReader(1))
	if err != nil {
		b.Fatal(err)
	}
	encs := randomEncodings(8, 128, cfg.VocabSize, 2)
	runForward(b, m.FLOPs(8, 128), func() error { _, err := m.Forward(context.Background(), encs, ForwardOptions{}); return err })
}

func BenchmarkFullSizeViTB16x8(b *testing.B) {
	cfg := ViTConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072, HiddenAct: "gelu",
		ImageSize: 224, PatchSize: 16, NumChannels: 3, LayerNormEps: 1e-12}
	m, err := newViT(cfg, randomReader(1))
	if err != nil {
		b.Fatal(err)
	}
	imgs := randomImages(8, 224, 2)
	runForward(b, m.FLOPs(8), func() error { _, err := m.Forward(context.Background(), imgs, ForwardOptions{}); return err })
}

func clipB32() CLIPConfig {
	return CLIPConfig{
		ProjectionDim: 512,
		TextConfig: CLIPTowerConfig{VocabSize: 49408, HiddenSize: 512, NumHiddenLayers: 12, NumAttentionHeads: 8,
			IntermediateSize: 2048, MaxPositionEmbeddings: 77, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
		VisionConfig: CLIPTowerConfig{HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
			ImageSize: 224, PatchSize: 32, NumChannels: 3, HiddenAct: "quick_gelu", LayerNormEps: 1e-5},
	}
}

func BenchmarkFullSizeCLIPB32Images8(b *testing.B) {
	m, err := newCLIP(clipB32(), randomReader(1))
	if err != nil {
		b.Fatal(err)
	}
	imgs := randomImages(8, 224, 2)
	runForward(b, m.ImageFLOPs(8), func() error { _, err := m.EncodeImages(context.Background(), imgs, ForwardOptions{}); return err })
}

func BenchmarkFullSizeCLIPB32Texts8x77(b *testing.B) {
	m, err := newCLIP(clipB32(), randomReader(1))
	if err != nil {
		b.Fatal(err)
	}
	encs := randomEncodings(8, 77, 49408, 2)
	runForward(b, m.TextFLOPs(8, 77), func() error { _, err := m.EncodeText(context.Background(), encs, ForwardOptions{}); return err })
}
