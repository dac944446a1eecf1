package vrank

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/backendtest"
)

// TestLoadOnBackend checks that Load's options choose the backend the
// predictions run on (and WithWeights keeps it), with the CPU's numbers,
// and that Close gives the encoder's weights back to it.
func TestLoadOnBackend(t *testing.T) {
	dir := t.TempDir()
	if err := tinyModel(t, 3).Save(dir); err != nil {
		t.Fatal(err)
	}
	s1, s2 := storyPairs(rand.New(rand.NewSource(1)), 5)
	ctx := context.Background()
	cpu, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cpu.Predict(ctx, s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	be := backendtest.NewCounting()
	m, err := Load(dir, encoders.Options{Backend: be})
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []*Model{m, mustWithWeights(t, m)} {
		before := be.Gemms.Load()
		got, err := model.Predict(ctx, s1, s2)
		if err != nil {
			t.Fatal(err)
		}
		if be.Gemms.Load() == before {
			t.Errorf("the predictions ran no product on the backend Load was given")
		}
		if !slices.Equal(got, want) {
			t.Errorf("predictions %v on the given backend, %v on the CPU", got, want)
		}
		frees := be.Frees.Load()
		if err := model.Close(); err != nil {
			t.Fatal(err)
		}
		if be.Frees.Load() == frees {
			t.Errorf("Close freed nothing on the backend")
		}
		if _, err := model.Predict(ctx, s1, s2); err == nil {
			t.Errorf("Predict after Close succeeded")
		}
	}
}

func mustWithWeights(t *testing.T, m *Model) *Model {
	t.Helper()
	w, err := m.WithWeights(m.Weights())
	if err != nil {
		t.Fatal(err)
	}
	return w
}
