package vrank

import (
	"context"
	"math/rand"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute"
)

// countingBackend is the CPU backend counting its matrix products and
// frees, to show which backend a model runs on.
type countingBackend struct {
	compute.Backend
	gemms, frees atomic.Int64
}

func (b *countingBackend) Gemm(transA, transB bool, m, n, k int, alpha float32, a compute.Tensor, lda int, bt compute.Tensor, ldb int, beta float32, c compute.Tensor, ldc int) {
	b.gemms.Add(1)
	b.Backend.Gemm(transA, transB, m, n, k, alpha, a, lda, bt, ldb, beta, c, ldc)
}

func (b *countingBackend) Free(t compute.Tensor) {
	b.frees.Add(1)
	b.Backend.Free(t)
}

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
	be := &countingBackend{Backend: compute.CPU()}
	m, err := Load(dir, encoders.Options{Backend: be})
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []*Model{m, mustWithWeights(t, m)} {
		before := be.gemms.Load()
		got, err := model.Predict(ctx, s1, s2)
		if err != nil {
			t.Fatal(err)
		}
		if be.gemms.Load() == before {
			t.Errorf("the predictions ran no product on the backend Load was given")
		}
		if !slices.Equal(got, want) {
			t.Errorf("predictions %v on the given backend, %v on the CPU", got, want)
		}
		frees := be.frees.Load()
		if err := model.Close(); err != nil {
			t.Fatal(err)
		}
		if be.frees.Load() == frees {
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
