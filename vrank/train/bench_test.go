package train

import (
	"bufio"
	"context"
	"github.com/storyeval/storyeval/vrank"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// peakRSSMB reads VmHWM (peak resident set) from /proc/self/status; -1
// where that is unavailable.
func peakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return -1
}

// BenchmarkFullSizeBERTBase8x512 times, on a BERT-base configuration with
// random weights and 8 pairs of 512 tokens: Predict (encoders.BERT), the
// training forward pass alone, and a full training step (forward, backward
// through every layer, Adam over all 110M parameters), and reports the
// step's ratio to both forward passes and the process's peak RSS during
// training. Run with -benchtime=1x.
func BenchmarkFullSizeBERTBase8x512(b *testing.B) {
	cfg := vrank.Config{BERT: encoders.BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12,
		IntermediateSize: 3072, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := vrank.NewRandom(cfg, filepath.Join(e2efixtures.Metric("vrank"), "model"), 1)
	if err != nil {
		b.Fatal(err)
	}
	story := strings.Repeat("the family went to the beach and everyone had a wonderful time . ", 30)
	var batch []Pair
	for i := 0; i < 8; i++ {
		batch = append(batch, Pair{Story1: strconv.Itoa(i) + " " + story, Story2: story, Gap: float64(i%3) - 1})
	}
	s1, s2, _, _ := splitPairs(batch)
	encs, err := m.Encode(s1, s2)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range encs {
		if e.Len() != 512 {
			b.Fatalf("pair of %d tokens, want 512", e.Len())
		}
	}
	ctx := context.Background()
	tr, err := NewTrainer(m, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Encoder(); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	start, cpu := time.Now(), cpuSeconds()
	if _, err := m.Predict(ctx, s1, s2); err != nil {
		b.Fatal(err)
	}
	predict, predictCPU := time.Since(start), cpuSeconds()-cpu
	runtime.GC()
	start, cpu = time.Now(), cpuSeconds()
	if _, err := tr.net.forward(ctx, padBatch(encs), nil); err != nil {
		b.Fatal(err)
	}
	trainForward, trainForwardCPU := time.Since(start), cpuSeconds()-cpu
	// One untimed step first: training runs in steady state, where the
	// step's buffers already exist.
	if _, err := tr.Step(ctx, batch); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	// Return freed memory to the OS, so that the peak below is the
	// training step's.
	debug.FreeOSMemory()
	// Writing 5 to clear_refs resets VmHWM to the current RSS (Linux).
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	b.ResetTimer()
	var step time.Duration
	var stepCPU float64
	for i := 0; i < b.N; i++ {
		start, cpu = time.Now(), cpuSeconds()
		if _, err := tr.Step(ctx, batch); err != nil {
			b.Fatal(err)
		}
		step += time.Since(start)
		stepCPU += cpuSeconds() - cpu
	}
	b.StopTimer()
	stepS := step.Seconds() / float64(b.N)
	stepCPU /= float64(b.N)
	enc, _ := m.Encoder()
	flops := enc.FLOPs(8, 512)
	b.ReportMetric(predict.Seconds(), "predict-s")
	b.ReportMetric(flops/predict.Seconds()/1e9, "predict-GFLOP/s")
	b.ReportMetric(trainForward.Seconds(), "train-forward-s")
	b.ReportMetric(stepS, "step-s")
	b.ReportMetric(stepS/predict.Seconds(), "step/predict")
	b.ReportMetric(stepS/trainForward.Seconds(), "step/train-forward")
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
	// CPU seconds are less sensitive than wall time to other processes on
	// a shared machine.
	b.ReportMetric(predictCPU, "predict-cpu-s")
	b.ReportMetric(trainForwardCPU, "train-forward-cpu-s")
	b.ReportMetric(stepCPU, "step-cpu-s")
	b.ReportMetric(stepCPU/predictCPU, "cpu-step/predict")
	b.ReportMetric(stepCPU/trainForwardCPU, "cpu-step/train-forward")
}
