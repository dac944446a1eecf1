package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/rovist"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/trainckpt"
	"github.com/storyeval/storyeval/story"
)

// fixtureALBERTConfig reads the tiny ALBERT configuration of the rovist_c
// fixture.
func fixtureALBERTConfig(t testing.TB) (encoders.ALBERTConfig, string) {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(e2efixtures.Metric("rovist_c"), "*", "spiece.model"))
	if err != nil || len(m) != 1 {
		t.Fatalf("want one ALBERT folder with spiece.model in the rovist_c fixture, found %v", m)
	}
	dir := filepath.Dir(m[0])
	var cfg encoders.ALBERTConfig
	if err := encoders.LoadConfig(dir, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg, dir
}

// TestCoherenceTrainBackwardMatchesFiniteDifferences checks every gradient
// of the float64 ALBERT classifier (factorised embeddings, the mapping E→H,
// the shared layer's gradients summed over its applications, pooler, head,
// cross-entropy), with and without dropout and for both activations,
// against central differences of the loss. Since the gradient of each
// block's parameters depends on the input gradients of every block above
// it, this checks those too.
func TestCoherenceTrainBackwardMatchesFiniteDifferences(t *testing.T) {
	base, _ := fixtureALBERTConfig(t)
	// The fixture's sizes with a small vocabulary and position table, so
	// that every element can be perturbed.
	base.VocabSize, base.MaxPositionEmbeddings = 23, 9
	for _, tc := range []struct {
		name    string
		act     string
		dropout float64
	}{{"gelu", "gelu", 0}, {"gelu_new", "gelu_new", 0}, {"gelu+dropout", "gelu", 0.2}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			cfg.HiddenAct = tc.act
			if cfg.NumHiddenLayers < 2 {
				t.Fatalf("the fixture's ALBERT applies its layer %d times; the check needs sharing", cfg.NumHiddenLayers)
			}
			p := newSOPParams[float64](cfg)
			rng := rand.New(rand.NewSource(5))
			for _, nt := range p.tensors() {
				for i := range nt.Data {
					nt.Data[i] = 0.3 * rng.NormFloat64()
					if len(nt.Shape) == 1 && (nt.Name[len(nt.Name)-6:] == "weight") {
						nt.Data[i] += 1
					}
				}
			}
			act, _ := compute.ActivationByName(cfg.HiddenAct)
			net := &sopNet[float64]{p: p, E: cfg.EmbeddingSize, H: cfg.HiddenSize, I: cfg.IntermediateSize, heads: cfg.NumAttentionHeads,
				layers: cfg.NumHiddenLayers, eps: cfg.LayerNormEps, act: act, dropout: tc.dropout}
			lens := []int{7, 4, 2}
			in := &sopBatch{B: 3, S: 7}
			for b, n := range lens {
				for j := 0; j < in.S; j++ {
					in.ids = append(in.ids, (b*5+j*3)%cfg.VocabSize)
					in.types = append(in.types, map[bool]int{true: 1}[j >= n/2])
					in.keyValid = append(in.keyValid, j < n)
				}
			}
			labels := []int{1, 0, 1}
			ctx := context.Background()
			loss := func() float64 {
				c, err := net.forward(ctx, in, rand.New(rand.NewSource(9)))
				if err != nil {
					t.Fatal(err)
				}
				l, _ := crossEntropy(c.logits, labels)
				return l
			}
			c, err := net.forward(ctx, in, rand.New(rand.NewSource(9)))
			if err != nil {
				t.Fatal(err)
			}
			_, dlogits := crossEntropy(c.logits, labels)
			g := p.zeroLike()
			if err := net.backward(ctx, c, dlogits, g); err != nil {
				t.Fatal(err)
			}
			gts := g.tensors()
			checked := 0
			for ti, nt := range p.tensors() {
				worst := 0.0
				// Every element of a small tensor, a seeded sample of a
				// large one (the test stays within seconds).
				idx := rng.Perm(len(nt.Data))
				if len(idx) > 150 {
					idx = idx[:150]
				}
				for _, i := range idx {
					orig := nt.Data[i]
					const h = 1e-5
					nt.Data[i] = orig + h
					up := loss()
					nt.Data[i] = orig - h
					down := loss()
					nt.Data[i] = orig
					num := (up - down) / (2 * h)
					worst = math.Max(worst, math.Abs(num-gts[ti].Data[i])/math.Max(1e-3, math.Abs(num)))
					checked++
				}
				if worst > 1e-5 {
					t.Errorf("%s: worst relative error %.3g between analytic and numeric gradient", nt.Name, worst)
				}
			}
			t.Logf("%d gradient elements checked", checked)
		})
	}
}

// TestCoherenceTrainForwardMatchesScorer runs the training network (float32,
// no dropout) from the fixture's original checkpoint on every model pair of
// expected.json and compares its probabilities and logits with the
// reference scorer's.
func TestCoherenceTrainForwardMatchesScorer(t *testing.T) {
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", dir)
	tr, err := NewCoherenceTrainer(findOne(t, dir, "*.pth.tar"), findDirWith(t, dir, "spiece.model"), CoherenceTrainOptions{BatchSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		RovistC map[string]struct {
			Pairs []struct {
				SentA     string    `json:"sent_a"`
				SentB     string    `json:"sent_b"`
				Identical bool      `json:"identical"`
				InputIDs  []int     `json:"input_ids"`
				TypeIDs   []int     `json:"token_type_ids"`
				Logits    []float64 `json:"logits"`
				Prob      *float64  `json:"prob_coherent"`
			} `json:"pairs"`
		} `json:"rovist_c"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	var pairs []SOPPair
	var wantProb []float64
	var wantLogits [][]float64
	var wantIDs, wantTypes [][]int
	for _, st := range exp.RovistC {
		for _, p := range st.Pairs {
			if p.Identical {
				continue
			}
			if p.Prob == nil || len(p.Logits) != 2 {
				t.Fatalf("pair %q/%q has no prob_coherent or logits", p.SentA, p.SentB)
			}
			pairs = append(pairs, SOPPair{A: p.SentA, B: p.SentB, Label: 1})
			wantProb, wantLogits = append(wantProb, *p.Prob), append(wantLogits, p.Logits)
			wantIDs, wantTypes = append(wantIDs, p.InputIDs), append(wantTypes, p.TypeIDs)
		}
	}
	if len(pairs) == 0 {
		t.Fatal("expected.json has no model pairs")
	}
	encs, _, err := tr.encodeSOP(pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range encs {
		if !equalInts(e.IDs, wantIDs[i]) || !equalInts(e.TypeIDs, wantTypes[i]) {
			t.Errorf("pair %d: input ids/types differ from expected.json", i)
		}
	}
	probs, err := tr.probabilities(context.Background(), encs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tr.net.forward(context.Background(), newSOPBatch(encs), nil)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range pairs {
		d := math.Abs(probs[i] - wantProb[i])
		worst = math.Max(worst, d)
		if d > 1e-5 {
			t.Errorf("pair %d: probability %.8g, the reference %.8g", i, probs[i], wantProb[i])
		}
		for k := range 2 {
			if d := math.Abs(float64(c.logits[2*i+k]) - wantLogits[i][k]); d > 1e-5*math.Max(1, math.Abs(wantLogits[i][k])) {
				t.Errorf("pair %d logit %d: %.8g, the reference %.8g", i, k, c.logits[2*i+k], wantLogits[i][k])
			}
		}
	}
	t.Logf("%d pair probabilities and %d logits within 1e-5 (worst probability difference %.3g)", len(pairs), 2*len(pairs), worst)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// synthSOPStories makes stories whose sentences follow a learnable order:
// a morning, a noon, an evening and a night sentence, in that order, each
// drawn from a few variants; a pair is in order when its first sentence
// belongs to the earlier part of the day.
func synthSOPStories(n int, seed int64) []story.Story {
	rng := rand.New(rand.NewSource(seed))
	phases := [][]string{
		{"the sun rose over the hill", "we woke up early", "the birds sang at dawn"},
		{"we ate lunch in the park", "the noon heat was strong", "we had sandwiches at midday"},
		{"the sunset was orange", "we cooked dinner together", "the evening breeze was cool"},
		{"the stars came out", "we went to bed", "the moon shone at night"},
	}
	var out []story.Story
	for i := range n {
		text := ""
		for _, variants := range phases {
			text += variants[rng.Intn(len(variants))] + ". "
		}
		out = append(out, story.Story{ID: fmt.Sprintf("s%d", i), Text: text})
	}
	return out
}

// TestCoherenceTrainerLearnsSyntheticOrder trains a small random ALBERT on
// sentence-order pairs with a learnable rule and checks that the validation
// loss falls and the validation accuracy exceeds 0.9; then that the saved
// model scores as the in-memory one and as the training network does.
func TestCoherenceTrainerLearnsSyntheticOrder(t *testing.T) {
	cfg, albertDir := fixtureALBERTConfig(t)
	cfg.NumHiddenLayers = 2
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range []string{"config.json", "spiece.model"} {
		if files[name], err = os.ReadFile(filepath.Join(albertDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	train, err := SOPPairs(synthSOPStories(40, 1))
	if err != nil {
		t.Fatal(err)
	}
	val, err := SOPPairs(synthSOPStories(10, 2))
	if err != nil {
		t.Fatal(err)
	}
	ckDir := t.TempDir()
	opts := CoherenceTrainOptions{Epochs: 12, BatchSize: 8, LearningRate: 3e-4, NoDropout: true, Seed: 3, EarlyStop: -1, LRDecay: 1, CheckpointDir: ckDir}
	tr, err := NewRandomCoherenceTrainer(cfg, tok, files, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	loss0, acc0, err := tr.Evaluate(ctx, val)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := tr.Train(ctx, train, val)
	if err != nil {
		t.Fatal(err)
	}
	last := hist[len(hist)-1]
	for _, h := range hist {
		t.Logf("epoch %d: train loss %.4f acc %.3f, validation loss %.4f acc %.3f", h.Epoch, h.TrainLoss, h.TrainAccuracy, h.ValidationLoss, h.ValidationAccuracy)
	}
	if !(last.ValidationLoss < loss0) {
		t.Errorf("validation loss %.4f did not fall below the initial %.4f", last.ValidationLoss, loss0)
	}
	if last.ValidationAccuracy <= 0.9 {
		t.Errorf("validation accuracy %.3f (initially %.3f), want > 0.9", last.ValidationAccuracy, acc0)
	}

	// Save → score equals the in-memory model and the training network.
	saved := t.TempDir()
	if err := tr.SaveModel(saved); err != nil {
		t.Fatal(err)
	}
	stories := synthSOPStories(5, 4)
	a, b := scoreSavedAndInMemory(t, tr, saved, stories)
	var encs []tokenize.Encoding
	var probs []float64
	for i := range a {
		if a[i].Score != b[i].Score {
			t.Errorf("story %d: saved model scores %v, in-memory model %v", i, a[i].Score, b[i].Score)
		}
		for _, p := range a[i].Pairs {
			if !p.Identical {
				encs = append(encs, tokenize.Encoding{IDs: p.IDs, TypeIDs: p.TypeIDs})
				probs = append(probs, p.Prob)
			}
		}
	}
	got, err := tr.probabilities(ctx, encs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-probs[i]) > 1e-5 {
			t.Errorf("pair %d: the training network gives %.8g, the scorer %.8g", i, got[i], probs[i])
		}
	}
	// The last checkpoint is a model folder too, and resuming from it
	// continues where training stopped.
	latest, ok := trainckpt.Latest(ckDir)
	if !ok || latest != last.Checkpoint {
		t.Fatalf("latest checkpoint %q, want %q", latest, last.Checkpoint)
	}
	ck, err := LoadCoherenceModelDir(latest)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ck.Score(ctx, stories, rovist.CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range c {
		if c[i].Score != a[i].Score {
			t.Errorf("story %d: checkpoint scores %v, saved model %v", i, c[i].Score, a[i].Score)
		}
	}
	n := len(hist)
	opts.Epochs = n + 1
	res, err := ResumeCoherenceTrainer(ckDir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Epoch() != n || len(res.History()) != n || res.adam.Step != tr.adam.Step {
		t.Fatalf("resumed at epoch %d, step %d with %d history entries; want %d, %d, %d", res.Epoch(), res.adam.Step, len(res.History()), n, tr.adam.Step, n)
	}
	// One more epoch from the checkpoint gives the weights of one more
	// epoch of the uninterrupted run.
	tr.opts.Epochs = n + 1
	if _, err := tr.Train(ctx, train, val); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Train(ctx, train, val); err != nil {
		t.Fatal(err)
	}
	for i, nt := range tr.net.p.tensors() {
		rt := res.net.p.tensors()[i]
		if !slices.Equal(nt.Data, rt.Data) {
			t.Errorf("%s differs between the resumed and the uninterrupted run", nt.Name)
		}
	}
}

// TestCoherenceSavedConfigIsTheTrainedOne gives the trainer the fixture's
// config.json bytes but a configuration with one more application of the
// shared ALBERT layer (the weights are the same, so only config.json can
// tell them apart): the saved model, a checkpoint and a trainer resumed from
// it must all be the trained configuration, and the saved model must score
// exactly as the in-memory one.
func TestCoherenceSavedConfigIsTheTrainedOne(t *testing.T) {
	cfg, albertDir := fixtureALBERTConfig(t)
	cfg.NumHiddenLayers++
	tok, err := tokenize.LoadALBERT(albertDir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range []string{"config.json", "spiece.model"} {
		if files[name], err = os.ReadFile(filepath.Join(albertDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := NewRandomCoherenceTrainer(cfg, tok, files, CoherenceTrainOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	saved := t.TempDir()
	if err := tr.SaveModel(saved); err != nil {
		t.Fatal(err)
	}
	var got encoders.ALBERTConfig
	if err := encoders.LoadConfig(saved, &got); err != nil {
		t.Fatal(err)
	}
	if got != cfg {
		t.Errorf("saved config.json holds %+v, the trainer trained %+v", got, cfg)
	}
	var members map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(saved, "config.json")), &members); err != nil {
		t.Fatal(err)
	}
	var given map[string]any
	if err := json.Unmarshal(files["config.json"], &given); err != nil {
		t.Fatal(err)
	}
	for k := range given {
		if _, ok := members[k]; !ok {
			t.Errorf("saved config.json lost the member %q of the given one", k)
		}
	}
	a, b := scoreSavedAndInMemory(t, tr, saved, synthSOPStories(3, 7))
	for i := range a {
		if a[i].Score != b[i].Score {
			t.Errorf("story %d: saved model scores %v, the trained one %v", i, a[i].Score, b[i].Score)
		}
	}
	ck, err := tr.writeCheckpoint(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := ResumeCoherenceTrainer(ck, CoherenceTrainOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.cfg != cfg {
		t.Errorf("resumed trainer trains %+v, the interrupted one %+v", res.cfg, cfg)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scoreSavedAndInMemory scores stories with the model folder saved (as
// LoadCoherenceModelDir reads it) and with the trainer's in-memory model.
func scoreSavedAndInMemory(t *testing.T, tr *CoherenceTrainer, saved string, stories []story.Story) (fromSaved, inMemory []rovist.CoherenceResult) {
	t.Helper()
	loaded, err := LoadCoherenceModelDir(saved)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := tr.Model()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []*rovist.CoherenceModel{loaded, mem} {
		res, err := m.Score(context.Background(), stories, rovist.CoherenceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			fromSaved = res
		} else {
			inMemory = res
		}
	}
	return fromSaved, inMemory
}
