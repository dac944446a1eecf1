package train

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/storyeval/storyeval/vrank"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/training"
)

// Words of the synthetic pair set: a story's quality is the number of
// "good" words it holds, a rule the model can learn from the tokens alone.
var (
	goodWords = strings.Fields("sunny happy bright family smiled party friends beach warm laughed")
	badWords  = strings.Fields("broken grey nothing waited table door wall empty stood chair")
)

// writeTinyVocab writes a WordPiece vocabulary of the special tokens and the
// synthetic words to a new folder.
func writeTinyVocab(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	words := append([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, goodWords...)
	words = append(words, badWords...)
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(words, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tinyModel is a random 2-layer BERT (H 32) with the synthetic vocabulary.
func tinyModel(t testing.TB, seed int64) *vrank.Model {
	t.Helper()
	cfg := vrank.Config{BERT: tinyBERT(25)}
	cfg.BERT.HiddenSize, cfg.BERT.NumAttentionHeads, cfg.BERT.IntermediateSize, cfg.BERT.MaxPositionEmbeddings = 32, 4, 64, 32
	m, err := vrank.NewRandom(cfg, writeTinyVocab(t), seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// syntheticPairs draws n pairs of 6-word stories with different numbers of
// good words; the gap is (good₂ − good₁)/2, negative when story 1 is better.
func syntheticPairs(rng *rand.Rand, n int) []Pair {
	story := func() (string, int) {
		good := rng.Intn(7)
		w := make([]string, 6)
		for i := range w {
			if i < good {
				w[i] = goodWords[rng.Intn(len(goodWords))]
			} else {
				w[i] = badWords[rng.Intn(len(badWords))]
			}
		}
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		return strings.Join(w, " "), good
	}
	var out []Pair
	for len(out) < n {
		s1, g1 := story()
		s2, g2 := story()
		if g1 != g2 {
			out = append(out, Pair{Story1: s1, Story2: s2, Gap: float64(g2-g1) / 2})
		}
	}
	return out
}

// agreement is the share of pairs whose predicted gap has the gold sign.
func signAgreement(pred []float64, ex []Pair) float64 {
	n := 0
	for i, p := range pred {
		if (p < 0 && ex[i].Gap < 0) || (p > 0 && ex[i].Gap > 0) {
			n++
		}
	}
	return float64(n) / float64(len(ex))
}

func trainPairColumns(ex []Pair) (s1, s2 []string) {
	for _, e := range ex {
		s1, s2 = append(s1, e.Story1), append(s2, e.Story2)
	}
	return s1, s2
}

func TestTrainingConverges(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	train, heldOut := syntheticPairs(rng, 400), syntheticPairs(rng, 200)
	m := tinyModel(t, 1)
	s1, s2 := trainPairColumns(heldOut)
	before, err := m.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	tr, err := NewTrainer(m, Options{Epochs: 8, BatchSize: 16, LearningRate: 1e-3, Progress: func(training.Progress) { steps++ }})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := tr.Train(context.Background(), train, nil)
	if err != nil {
		t.Fatal(err)
	}
	trained, err := tr.Model()
	if err != nil {
		t.Fatal(err)
	}
	after, err := trained.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	last := hist[len(hist)-1]
	t.Logf("held-out ranking accuracy %.3f before, %.3f after %d epochs (%d steps); last epoch: train loss %.4f, validation loss %.4f, validation accuracy %.3f",
		signAgreement(before, heldOut), signAgreement(after, heldOut), len(hist), steps, last.TrainLoss, last.ValidationLoss, last.ValidationAccuracy)
	if acc := signAgreement(after, heldOut); acc <= 0.9 {
		t.Errorf("held-out ranking accuracy %.3f, want > 0.9", acc)
	}
	if hist[0].TrainLoss <= last.TrainLoss {
		t.Errorf("training loss did not fall: %.4f → %.4f", hist[0].TrainLoss, last.TrainLoss)
	}
	// 360 training pairs after the 10 % validation split, doubled by the
	// augmentation, in batches of 16.
	if want := 8 * ((720 + 15) / 16); steps != want {
		t.Errorf("%d steps, want %d", steps, want)
	}

	// Save → load gives identical predictions, and the trainer's own
	// forward pass agrees with encoders.BERT's.
	dir := t.TempDir()
	if err := trained.Save(dir); err != nil {
		t.Fatal(err)
	}
	loaded, err := vrank.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	again, err := loaded.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range after {
		if again[i] != after[i] {
			t.Fatalf("pair %d: %v after save and load, %v before", i, again[i], after[i])
		}
	}
	val, err := tr.newEvalSet(heldOut)
	if err != nil {
		t.Fatal(err)
	}
	_, acc, err := tr.evaluate(context.Background(), val)
	if err != nil {
		t.Fatal(err)
	}
	if acc != signAgreement(after, heldOut) {
		t.Errorf("trainer's evaluation %.4f, Predict's %.4f", acc, signAgreement(after, heldOut))
	}
}

func TestResumeMatchesUninterruptedRun(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	train := syntheticPairs(rng, 60)
	opts := Options{Epochs: 3, BatchSize: 8, LearningRate: 1e-3, EncoderDropout: 0.1}
	full, err := NewTrainer(tinyModel(t, 2), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := full.Train(context.Background(), train, nil); err != nil {
		t.Fatal(err)
	}

	root := t.TempDir()
	first := opts
	first.Epochs, first.CheckpointDir = 2, root
	part, err := NewTrainer(tinyModel(t, 2), first)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Train(context.Background(), train, nil); err != nil {
		t.Fatal(err)
	}
	// Only the latest checkpoint and the best epoch's are kept, and no
	// temporary folder is left.
	best, _ := part.Best()
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"epoch-001", "epoch-002"}
	if best.Epoch == 2 {
		want = want[1:]
	}
	if !slices.Equal(names, want) {
		t.Fatalf("checkpoint folder holds %v, want %v (best epoch %d)", names, want, best.Epoch)
	}
	opts.CheckpointDir = root
	resumed, err := ResumeTrainer(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Epoch() != 2 {
		t.Fatalf("resumed at epoch %d, want 2", resumed.Epoch())
	}
	hist, err := resumed.Train(context.Background(), train, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 || hist[2].Checkpoint != filepath.Join(root, "epoch-003") {
		t.Errorf("history %+v", hist)
	}
	for _, name := range full.ParameterNames() {
		a, b := full.Parameter(name), resumed.Parameter(name)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s[%d]: %v after resuming, %v uninterrupted", name, i, b[i], a[i])
			}
		}
	}
}

func TestTrainCancelled(t *testing.T) {
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	tr, err := NewTrainer(tinyModel(t, 3), Options{Epochs: 5, BatchSize: 4, CheckpointDir: root,
		Progress: func(p training.Progress) {
			if p.Epoch == 2 {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Train(ctx, syntheticPairs(rand.New(rand.NewSource(1)), 20), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "epoch-001" {
		t.Errorf("checkpoint folder holds %v, want only the complete epoch-001", entries)
	}
}

func TestBadInput(t *testing.T) {
	f := loadVrankFixture(t)
	// A model folder without weights.
	dir := t.TempDir()
	for _, name := range []string{"config.json", "vocab.txt", "tokenizer_config.json"} {
		data, err := os.ReadFile(filepath.Join(f.dir, "model", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := vrank.Load(dir); err == nil || !strings.Contains(err.Error(), "no readable weights") {
		t.Errorf("folder without weights: error %v", err)
	}
	// A plain encoder config is not a trained model.
	cfg, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	plain := strings.Replace(string(cfg), `"vrank_head"`, `"other"`, 1)
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(plain), 0o644)
	if _, err := vrank.Load(dir); err == nil || !strings.Contains(err.Error(), "vrank_head") {
		t.Errorf("config without vrank_head: error %v", err)
	}
	os.WriteFile(filepath.Join(dir, "config.json"), []byte("{"), 0o644)
	if _, err := vrank.Load(dir); err == nil || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("malformed config: error %v", err)
	}
	// A config.json whose sizes do not match the weights (huge ones must
	// fail before any allocation).
	var fields map[string]any
	if err := json.Unmarshal(cfg, &fields); err != nil {
		t.Fatal(err)
	}
	fields["hidden_size"] = 1_600_000_000
	huge, _ := json.Marshal(fields)
	os.WriteFile(filepath.Join(dir, "config.json"), huge, 0o644)
	w, _ := os.ReadFile(filepath.Join(f.dir, "model", "model.safetensors"))
	os.WriteFile(filepath.Join(dir, "model.safetensors"), w, 0o644)
	if _, err := vrank.Load(dir); err == nil || !strings.Contains(err.Error(), "config.json needs") {
		t.Errorf("config sizes that disagree with the weights: error %v", err)
	}
	// Truncated weights.
	os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644)
	os.WriteFile(filepath.Join(dir, "model.safetensors"), w[:len(w)/2], 0o644)
	if _, err := vrank.Load(dir); err == nil {
		t.Errorf("truncated weights: no error")
	}
	m := tinyModel(t, 4)
	if _, err := m.Predict(context.Background(), []string{"a"}, nil); err == nil {
		t.Errorf("mismatched pair columns: no error")
	}
	tr, _ := NewTrainer(m, Options{})
	if _, err := tr.Step(context.Background(), []Pair{{Story1: "a", Story2: "b", Gap: nanValue()}}); err == nil || !strings.Contains(err.Error(), "pair 0") {
		t.Errorf("NaN gap: error %v", err)
	}
	if _, err := tr.Train(context.Background(), nil, nil); err == nil {
		t.Errorf("no training pairs: no error")
	}
	if _, err := ResumeTrainer(t.TempDir(), Options{}); err == nil {
		t.Errorf("resume from an empty folder: no error")
	}
}

func nanValue() float64 { var z float64; return z / z }

// TestTrainingIndependentOfWorkers trains with one worker and with four:
// every reduction runs in a fixed order, so the weights are identical and a
// checkpoint resumes to the same result on any machine.
func TestTrainingIndependentOfWorkers(t *testing.T) {
	train := syntheticPairs(rand.New(rand.NewSource(12)), 40)
	run := func(procs int) *Trainer {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		// Wide enough that the column reductions and the GEMMs split.
		cfg := tinyModel(t, 7).Config()
		cfg.BERT.HiddenSize, cfg.BERT.IntermediateSize = 256, 512
		m, err := vrank.NewRandom(cfg, writeTinyVocab(t), 7)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTrainer(m, Options{Epochs: 2, BatchSize: 8, LearningRate: 1e-3, EncoderDropout: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Train(context.Background(), train, nil); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	one, four := run(1), run(4)
	for _, name := range one.ParameterNames() {
		a, b := one.Parameter(name), four.Parameter(name)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s[%d]: %v with one worker, %v with four", name, i, a[i], b[i])
			}
		}
	}
}
