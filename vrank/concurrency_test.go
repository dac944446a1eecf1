package vrank

import (
	"context"
	"math/rand"
	"sync"
	"testing"
)

// TestPredictConcurrent runs Predict from several goroutines on one model
// (the first call builds the encoder) and checks every result against a
// sequential run; run with -race.
func TestPredictConcurrent(t *testing.T) {
	m := tinyModel(t, 9)
	s1, s2 := storyPairs(rand.New(rand.NewSource(3)), 20)
	results := make([][]float64, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = m.Predict(context.Background(), s1, s2)
		}()
	}
	wg.Wait()
	want, err := m.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		for j := range want {
			if r[j] != want[j] {
				t.Fatalf("goroutine %d, pair %d: %v, sequential %v", i, j, r[j], want[j])
			}
		}
	}
	// Results do not depend on how pairs are batched together.
	for j := range want {
		one, err := m.Predict(context.Background(), s1[j:j+1], s2[j:j+1])
		if err != nil {
			t.Fatal(err)
		}
		if d := one[0] - want[j]; d > 1e-6 || d < -1e-6 {
			t.Errorf("pair %d alone: %v, in a batch: %v", j, one[0], want[j])
		}
	}
}
