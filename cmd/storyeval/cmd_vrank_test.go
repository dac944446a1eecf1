package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/vrank"
)

// tinyVrankEncoder writes a random 1-layer BERT with a small vocabulary to a
// folder, to start training from.
func tinyVrankEncoder(t *testing.T, words []string) string {
	t.Helper()
	vocabDir := t.TempDir()
	vocab := append([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, words...)
	if err := os.WriteFile(filepath.Join(vocabDir, "vocab.txt"), []byte(strings.Join(vocab, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := vrank.Config{BERT: encoders.BERTConfig{VocabSize: len(vocab), HiddenSize: 16, NumHiddenLayers: 1, NumAttentionHeads: 2,
		IntermediateSize: 32, HiddenAct: "gelu", MaxPositionEmbeddings: 32, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := vrank.NewRandom(cfg, vocabDir, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := m.Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writePairsCSV writes VHED-format pairs whose gap follows a learnable rule
// (more "good" words: better story).
func writePairsCSV(t *testing.T, path string, rng *rand.Rand, n int, good, bad []string) {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"story_id", "sent1", "sent2", "label"})
	story := func() (string, int) {
		k := rng.Intn(5)
		var ws []string
		for i := 0; i < 4; i++ {
			if i < k {
				ws = append(ws, good[rng.Intn(len(good))])
			} else {
				ws = append(ws, bad[rng.Intn(len(bad))])
			}
		}
		return strings.Join(ws, " "), k
	}
	for i := 0; i < n; {
		s1, k1 := story()
		s2, k2 := story()
		if k1 == k2 {
			continue
		}
		w.Write([]string{fmt.Sprint(i), s1, s2, fmt.Sprint(float64(k2-k1) / 2)})
		i++
	}
	w.Flush()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// trainOutput is what the train commands (rovist train vg|c, vrank
// train|pretrain) print, as the tests read it: null values read as 0.
type trainOutput struct {
	Model, Encoder string
	BestEpoch      int `json:"best_epoch"`
	Epochs         []struct {
		Epoch              int
		ValidationLoss     float64 `json:"validation_loss"`
		ValidationAccuracy float64 `json:"validation_accuracy"`
		Checkpoint         string
	}
}

func TestVrankTrainThenPredict(t *testing.T) {
	good, bad := strings.Fields("happy sunny party smiled"), strings.Fields("broken empty grey waited")
	enc := tinyVrankEncoder(t, append(append([]string{}, good...), bad...))
	dir := t.TempDir()
	trainCSV, testCSV := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	rng := rand.New(rand.NewSource(2))
	writePairsCSV(t, trainCSV, rng, 60, good, bad)
	writePairsCSV(t, testCSV, rng, 10, good, bad)
	out, ckpt := filepath.Join(dir, "model"), filepath.Join(dir, "ckpt")
	var stdout, stderr bytes.Buffer
	args := []string{"vrank", "train", "-csv", trainCSV, "-encoder", enc, "-out", out, "-checkpoints", ckpt, "-epochs", "2", "-batch", "8", "-lr", "1e-3", "-encoder-dropout", "0.1"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr.String())
	}
	var res trainOutput
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if len(res.Epochs) != 2 || res.Epochs[1].Checkpoint != filepath.Join(ckpt, "epoch-002") {
		t.Errorf("train output %+v", res)
	}
	if !strings.Contains(stderr.String(), "epoch 2/2: train loss") {
		t.Errorf("no per-epoch progress on stderr: %q", stderr.String())
	}
	// Resume for one more epoch.
	stdout.Reset()
	args = []string{"vrank", "train", "-csv", trainCSV, "-resume", ckpt, "-out", out, "-epochs", "3", "-batch", "8", "-lr", "1e-3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Epochs) != 3 {
		t.Fatalf("resume output %s (%v)", stdout.String(), err)
	}
	// -out is the epoch of highest validation accuracy (the earliest of
	// equal ones), whose checkpoint is kept beside the last.
	best := res.Epochs[0]
	for _, e := range res.Epochs {
		if e.ValidationAccuracy > best.ValidationAccuracy {
			best = e
		}
	}
	if res.BestEpoch != best.Epoch {
		t.Errorf("best_epoch %d, want %d of %+v", res.BestEpoch, best.Epoch, res.Epochs)
	}
	if err := sameVrankPredictions(t, out, filepath.Join(ckpt, fmt.Sprintf("epoch-%03d", best.Epoch)), testCSV); err != nil {
		t.Errorf("-out and the best epoch's checkpoint: %v", err)
	}

	stdout.Reset()
	if code := runMain([]string{"vrank", "predict", "-model", out, "-csv", testCSV}, &stdout, &stderr); code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr.String())
	}
	var preds []struct {
		Pair int      `json:"pair"`
		Gap  *float64 `json:"gap"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &preds); err != nil {
		t.Fatal(err)
	}
	m, err := vrank.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := vrankTestPairs(t, testCSV)
	want, err := m.Predict(t.Context(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	if len(preds) != len(want) {
		t.Fatalf("%d predictions, want %d", len(preds), len(want))
	}
	for i, p := range preds {
		if p.Pair != i || p.Gap == nil || *p.Gap != want[i] {
			t.Errorf("prediction %d: %+v, want gap %v", i, p, want[i])
		}
	}
}

func TestVrankBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("sent1,sent2,label\na,b,oops\n"), 0o644)
	for _, args := range [][]string{
		{"vrank"},
		{"vrank", "fly"},
		{"vrank", "train", "-csv", bad, "-encoder", dir, "-out", dir},
		{"vrank", "train", "-csv", bad},
		{"vrank", "predict", "-model", dir, "-csv", bad},
	} {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
	var stdout, stderr bytes.Buffer
	runMain([]string{"vrank", "train", "-csv", bad, "-encoder", dir, "-out", dir}, &stdout, &stderr)
	if !strings.Contains(stderr.String(), "line 2, column label") {
		t.Errorf("bad label: %q", stderr.String())
	}
}

// sameVrankPredictions reports whether the Vrank models of two folders
// predict the same gaps for the pairs of csvPath.
func sameVrankPredictions(t *testing.T, a, b, csvPath string) error {
	t.Helper()
	s1, s2 := vrankTestPairs(t, csvPath)
	var preds [2][]float64
	for i, dir := range []string{a, b} {
		m, err := vrank.Load(dir)
		if err != nil {
			return err
		}
		if preds[i], err = m.Predict(t.Context(), s1, s2); err != nil {
			return err
		}
	}
	if !slices.Equal(preds[0], preds[1]) {
		return fmt.Errorf("%s predicts %v, %s %v", a, preds[0], b, preds[1])
	}
	return nil
}
