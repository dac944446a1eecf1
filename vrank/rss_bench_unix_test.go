//go:build unix

package vrank

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/storyeval/storyeval/encoders"
)

// rssChildEnv names the model folder TestLoadPredictChild loads in the child
// process BenchmarkFullSizeLoadPredictRSS starts.
const rssChildEnv = "STORYEVAL_VRANK_RSS_CHILD"

// BenchmarkFullSizeLoadPredictRSS saves a BERT-base Vrank model with random
// weights, then runs TestLoadPredictChild in a child process — load the
// model for prediction, predict one short pair — and reports the child's
// peak RSS (getrusage's ru_maxrss), so that nothing the benchmark itself
// allocated counts. Unix only; run with -benchtime=1x.
func BenchmarkFullSizeLoadPredictRSS(b *testing.B) {
	cfg := Config{BERT: encoders.BERTConfig{VocabSize: 30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12,
		IntermediateSize: 3072, HiddenAct: "gelu", MaxPositionEmbeddings: 512, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := NewRandom(cfg, "../testdata/e2e/vrank/model", 1)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := m.Save(dir); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLoadPredictChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), rssChildEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("child: %v: %s", err, out)
		}
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			b.Skip("no rusage on this system")
		}
		// Linux reports ru_maxrss in KiB.
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
	}
}

// TestLoadPredictChild is BenchmarkFullSizeLoadPredictRSS's child: it loads
// the model folder named by rssChildEnv and predicts one pair; without the
// variable it is skipped.
func TestLoadPredictChild(t *testing.T) {
	dir := os.Getenv(rssChildEnv)
	if dir == "" {
		t.Skip("run by BenchmarkFullSizeLoadPredictRSS")
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(context.Background(), []string{"the family went to the beach"}, []string{"a dog barked"}); err != nil {
		t.Fatal(err)
	}
}
