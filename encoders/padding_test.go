package encoders

import (
	"context"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
)

// unpad returns encoding e without its padding positions.
func unpad(e tokenize.Encoding) tokenize.Encoding {
	n := 0
	for _, m := range e.AttentionMask {
		n += m
	}
	return tokenize.Encoding{IDs: e.IDs[:n], TypeIDs: e.TypeIDs[:n], AttentionMask: e.AttentionMask[:n], Tokens: e.Tokens[:n]}
}

// A padded batch must give each item the outputs it gets alone:
// the masked keys get weight exactly 0. Checked on the golden BERT pair
// batch, whose sequences have different lengths.
func TestBERTPaddedBatchEqualsSingleItems(t *testing.T) {
	dir := filepath.Join(fixturedir.Dir(), "bert")
	m, err := LoadBERT(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := loadGolden(t, dir)
	encs := g.encodings("pair_")
	batch, err := m.Forward(context.Background(), encs, ForwardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	H := m.cfg.HiddenSize
	T := encs[0].Len()
	padded := 0
	for b, e := range encs {
		single := unpad(e)
		if single.Len() < T {
			padded++
		}
		out, err := m.Forward(context.Background(), []tokenize.Encoding{single}, ForwardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := dense.Data(out.LastHiddenState).([]float32)
		want := dense.Data(batch.LastHiddenState).([]float32)[b*T*H:]
		for i := range got {
			if math.Abs(float64(got[i]-want[i])) > 1e-5 {
				t.Fatalf("item %d value %d: alone %g, in the padded batch %g", b, i, got[i], want[i])
			}
		}
		p1 := dense.Data(out.PoolerOutput).([]float32)
		p2 := dense.Data(batch.PoolerOutput).([]float32)[b*H:]
		for i := range p1 {
			if math.Abs(float64(p1[i]-p2[i])) > 1e-5 {
				t.Fatalf("item %d pooler %d: alone %g, batched %g", b, i, p1[i], p2[i])
			}
		}
	}
	if padded == 0 {
		t.Fatal("the golden pair batch has no padded sequence; the test checks nothing")
	}
}

// Models are immutable: concurrent forward passes give identical results.
func TestConcurrentForward(t *testing.T) {
	dir := filepath.Join(fixturedir.Dir(), "bert")
	m, err := LoadBERT(dir)
	if err != nil {
		t.Fatal(err)
	}
	encs := loadGolden(t, dir).encodings("single_")
	ref, err := m.Forward(context.Background(), encs, ForwardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := dense.Data(ref.LastHiddenState).([]float32)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := m.Forward(context.Background(), encs, ForwardOptions{})
			if err != nil {
				errs <- err.Error()
				return
			}
			for i, v := range dense.Data(out.LastHiddenState).([]float32) {
				if v != want[i] {
					errs <- "concurrent result differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestForwardHonoursContextAndRejectsBadInput(t *testing.T) {
	dir := filepath.Join(fixturedir.Dir(), "bert")
	m, err := LoadBERT(dir)
	if err != nil {
		t.Fatal(err)
	}
	encs := loadGolden(t, dir).encodings("single_")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Forward(ctx, encs, ForwardOptions{}); err == nil {
		t.Error("a cancelled context did not stop the forward pass")
	}
	bad := []tokenize.Encoding{{IDs: []int{101, 1 << 20}, TypeIDs: []int{0, 0}, AttentionMask: []int{1, 1}, Tokens: []string{"a", "b"}}}
	if _, err := m.Forward(context.Background(), bad, ForwardOptions{}); err == nil {
		t.Error("an id outside the vocabulary was accepted")
	}
	short := encs[0]
	short = tokenize.Encoding{IDs: short.IDs[:3], TypeIDs: short.TypeIDs[:3], AttentionMask: short.AttentionMask[:3], Tokens: short.Tokens[:3]}
	ragged := []tokenize.Encoding{encs[0], short}
	if _, err := m.Forward(context.Background(), ragged, ForwardOptions{}); err == nil {
		t.Error("a ragged batch was accepted")
	}
	if _, err := m.Forward(context.Background(), nil, ForwardOptions{}); err == nil {
		t.Error("an empty batch was accepted")
	}
}
