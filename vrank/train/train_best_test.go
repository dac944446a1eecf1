package train

import (
	"context"
	"math/rand"
	"os"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/internal/trainckpt"
)

// TestBestEpochKeptAndReturned validates on pairs whose gaps contradict the
// learnable rule, so that the validation accuracy falls as training learns
// and the best epoch is an early one: its checkpoint must survive pruning
// beside the last one, BestModel must rank the validation pairs with the
// accuracy recorded for it, and a trainer without checkpoints (keeping the
// best weights in memory) and a resumed one must return the same model.
func TestBestEpochKeptAndReturned(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	train, val := syntheticPairs(rng, 200), syntheticPairs(rng, 60)
	for i := range val {
		val[i].Gap = -val[i].Gap
	}
	opts := Options{Epochs: 4, BatchSize: 16, LearningRate: 1e-3, NoEncoderDropout: true}
	withCk := opts
	withCk.CheckpointDir = t.TempDir()
	ck, err := NewTrainer(tinyModel(t, 4), withCk)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := ck.Train(context.Background(), train, val)
	if err != nil {
		t.Fatal(err)
	}
	best, ok := ck.Best()
	if !ok {
		t.Fatal("no best epoch after validated epochs")
	}
	for _, h := range hist {
		t.Logf("epoch %d: validation accuracy %.3f", h.Epoch, h.ValidationAccuracy)
		if h.ValidationAccuracy > best.ValidationAccuracy || (h.ValidationAccuracy == best.ValidationAccuracy && h.Epoch < best.Epoch) {
			t.Errorf("epoch %d (accuracy %v) beats the best epoch %d (%v)", h.Epoch, h.ValidationAccuracy, best.Epoch, best.ValidationAccuracy)
		}
	}
	if best.Epoch == len(hist) {
		t.Fatalf("the best epoch is the last one; the test needs an earlier one")
	}
	got := trainckpt.List(withCk.CheckpointDir)
	if want := []string{"epoch-00" + string(rune('0'+best.Epoch)), "epoch-004"}; !slices.Equal(got, want) {
		t.Errorf("checkpoints %v, want the best and the last %v", got, want)
	}
	s1, s2 := trainPairColumns(val)
	predictBest := func(tr *Trainer) []float64 {
		t.Helper()
		m, err := tr.BestModel()
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(context.Background(), s1, s2)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fromCk := predictBest(ck)
	if acc := signAgreement(fromCk, val); acc != best.ValidationAccuracy {
		t.Errorf("the best model ranks %.4f of the validation pairs, its epoch recorded %.4f", acc, best.ValidationAccuracy)
	}
	mem, err := NewTrainer(tinyModel(t, 4), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Train(context.Background(), train, val); err != nil {
		t.Fatal(err)
	}
	if got := predictBest(mem); !slices.Equal(got, fromCk) {
		t.Errorf("best model kept in memory predicts %v, from its checkpoint %v", got, fromCk)
	}
	res, err := ResumeTrainer(withCk.CheckpointDir, withCk)
	if err != nil {
		t.Fatal(err)
	}
	if got := predictBest(res); !slices.Equal(got, fromCk) {
		t.Errorf("best model of a resumed trainer predicts %v, before %v", got, fromCk)
	}
	if _, err := os.Stat(hist[len(hist)-1].Checkpoint); err != nil {
		t.Error(err)
	}
}

// TestEncoderDropoutDefault checks that BERT's own dropout is on in
// training by default (0.1) and off with NoEncoderDropout: with the head's
// dropout off, the default trainer's step differs from a step without any
// dropout, and NoEncoderDropout's equals it.
func TestEncoderDropoutDefault(t *testing.T) {
	if o := (Options{}).withDefaults(); o.EncoderDropout != 0.1 {
		t.Errorf("default encoder dropout %v, want 0.1", o.EncoderDropout)
	}
	batch := syntheticPairs(rand.New(rand.NewSource(3)), 8)
	loss := func(opts Options) float64 {
		tr, err := NewTrainer(tinyModel(t, 1), opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tr.Step(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		return r.Loss
	}
	none := loss(Options{NoDropout: true, NoEncoderDropout: true, EncoderDropout: 0.3})
	if l := loss(Options{NoDropout: true}); l == none {
		t.Errorf("default options: loss %v equals the loss without dropout", l)
	}
	tr, err := NewTrainer(tinyModel(t, 1), Options{NoDropout: true, NoEncoderDropout: true, EncoderDropout: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if tr.net.encDropout != 0 {
		t.Errorf("NoEncoderDropout: encoder dropout %v, want 0", tr.net.encDropout)
	}
	m := tinyModel(t, 1)
	s1, s2 := trainPairColumns(batch)
	pred, err := m.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for i, p := range pred {
		d := p - batch[i].Gap
		want += d * d
	}
	want /= float64(len(pred))
	// The step's float32 forward against Predict's: equal to float32's
	// precision.
	if d := (none - want) / want; d > 1e-6 || d < -1e-6 {
		t.Errorf("without dropout the step's loss %v, Predict's MSE %v", none, want)
	}
}
