package train

import (
	"context"
	"github.com/storyeval/storyeval/vrank"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// BenchmarkPretrainStepBERTBase times, on a BERT-base configuration with
// random weights and 8 texts of 128 tokens: the inference forward pass
// (encoders.BERT), the training forward pass (encoder over every token and
// the masked-LM head on the selected ones), and a full pre-training step
// (masking, forward with dropout, backward through the tied head and every
// layer, Adam over all parameters), and reports the step's ratio to both.
// Run with -benchtime=1x.
func BenchmarkPretrainStepBERTBase(b *testing.B) {
	cfg := encoders.BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12,
		IntermediateSize: 3072, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	pt, err := NewRandomPretrainer(cfg, filepath.Join(e2efixtures.Metric("vrank"), "model"), PretrainOptions{BatchSize: 8, MaxLength: 128, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("the family went to the beach and everyone had a wonderful time . ", 12)
	texts := make([]string, 8)
	for i := range texts {
		texts[i] = text
	}
	encs, err := pt.encodeTexts(texts, "benchmark")
	if err != nil {
		b.Fatal(err)
	}
	if encs[0].Len() != 128 {
		b.Fatalf("text of %d tokens, want 128", encs[0].Len())
	}
	m, err := vrank.NewRandom(pt.cfg, filepath.Join(e2efixtures.Metric("vrank"), "model"), 1)
	if err != nil {
		b.Fatal(err)
	}
	enc, err := m.Encoder()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	if _, err := enc.Forward(ctx, encs, encoders.ForwardOptions{}); err != nil {
		b.Fatal(err)
	}
	forward := time.Since(start)
	mb := maskBatch(encs, pt.sp, 0.15, rand.New(rand.NewSource(2)))
	start = time.Now()
	if _, _, _, _, _, err := mlmForward(ctx, pt.net, pt.head, mb, nil); err != nil {
		b.Fatal(err)
	}
	trainForward := time.Since(start)
	if _, err := pt.step(ctx, encs); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var step time.Duration
	for i := 0; i < b.N; i++ {
		start = time.Now()
		if _, err := pt.step(ctx, encs); err != nil {
			b.Fatal(err)
		}
		step += time.Since(start)
	}
	b.StopTimer()
	stepS := step.Seconds() / float64(b.N)
	b.ReportMetric(forward.Seconds(), "forward-s")
	b.ReportMetric(enc.FLOPs(8, 128)/forward.Seconds()/1e9, "forward-GFLOP/s")
	b.ReportMetric(trainForward.Seconds(), "train-forward-s")
	b.ReportMetric(stepS, "step-s")
	b.ReportMetric(stepS/forward.Seconds(), "step/forward")
	b.ReportMetric(stepS/trainForward.Seconds(), "step/train-forward")
}
