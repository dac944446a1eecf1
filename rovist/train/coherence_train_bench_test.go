package train

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// BenchmarkCoherenceTrainStepALBERTLarge times, on albert-large-v1's
// configuration (RoViST-C's base) with random weights and 8 sentence pairs
// of 128 pieces: the scorer's forward pass (encoders.ALBERT), the training
// network's forward pass, and a full training step (forward with dropout,
// backward through the 24 applications of the shared layer, Adam over all
// 18M parameters), and reports the step's ratio to both forward passes.
// Run with -benchtime=1x.
func BenchmarkCoherenceTrainStepALBERTLarge(b *testing.B) {
	_, albertDir := fixtureALBERTConfig(b)
	cfg := encoders.ALBERTConfig{VocabSize: 30000, EmbeddingSize: 128, HiddenSize: 1024, NumHiddenLayers: 24, NumHiddenGroups: 1, InnerGroupNum: 1,
		NumAttentionHeads: 16, IntermediateSize: 4096, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := NewRandomCoherenceTrainer(cfg, tok, nil, CoherenceTrainOptions{BatchSize: 8, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	sentence := strings.Repeat("the family went to the beach and everyone had fun . ", 6)
	var batch []SOPPair
	for i := range 8 {
		batch = append(batch, SOPPair{A: sentence, B: sentence + "yes", Label: i % 2})
	}
	encs, labels, err := tr.encodeSOP(batch)
	if err != nil {
		b.Fatal(err)
	}
	for i := range encs {
		// 128 pieces each: trim the pair's middle, keeping [CLS] … [SEP].
		if encs[i].Len() < 128 {
			b.Fatalf("pair of %d pieces, want ≥ 128", encs[i].Len())
		}
		n := encs[i].Len()
		keep := func(x []int) []int { return append(append([]int{}, x[:127]...), x[n-1]) }
		encs[i] = tokenize.Encoding{IDs: keep(encs[i].IDs), TypeIDs: keep(encs[i].TypeIDs), AttentionMask: keep(encs[i].AttentionMask)}
	}
	m, err := tr.Model()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	if _, err := m.Encoder().Forward(ctx, encs, encoders.ForwardOptions{}); err != nil {
		b.Fatal(err)
	}
	forward := time.Since(start)
	start = time.Now()
	if _, err := tr.net.forward(ctx, newSOPBatch(encs), nil); err != nil {
		b.Fatal(err)
	}
	trainForward := time.Since(start)
	// One untimed step: training runs in steady state, with its buffers.
	if _, err := tr.step(ctx, encs, labels); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var step time.Duration
	for i := 0; i < b.N; i++ {
		start = time.Now()
		if _, err := tr.step(ctx, encs, labels); err != nil {
			b.Fatal(err)
		}
		step += time.Since(start)
	}
	b.StopTimer()
	stepS := step.Seconds() / float64(b.N)
	flops := m.Encoder().FLOPs(8, 128)
	b.ReportMetric(forward.Seconds(), "forward-s")
	b.ReportMetric(flops/forward.Seconds()/1e9, "forward-GFLOP/s")
	b.ReportMetric(trainForward.Seconds(), "train-forward-s")
	b.ReportMetric(stepS, "step-s")
	b.ReportMetric(stepS/forward.Seconds(), "step/forward")
	b.ReportMetric(stepS/trainForward.Seconds(), "step/train-forward")
}
