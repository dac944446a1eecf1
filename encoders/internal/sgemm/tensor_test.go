package sgemm_test

import (
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/tensor"

	"github.com/storyeval/storyeval/encoders/internal/sgemm"
	"github.com/storyeval/storyeval/internal/dense"
)

// Implementation must stay usable as gorgonia.org/tensor's BLAS.
var _ tensor.BLAS = sgemm.Implementation{}

// countingSgemm is Implementation counting its Sgemm calls.
type countingSgemm struct {
	sgemm.Implementation
	calls *atomic.Int64
}

func (cs countingSgemm) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	cs.calls.Add(1)
	cs.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// TestThroughTensor checks a product computed by gorgonia.org/tensor with
// Implementation selected, as the encoders will use it.
func TestThroughTensor(t *testing.T) {
	prev := tensor.WhichBLAS()
	var calls atomic.Int64
	tensor.Use(countingSgemm{calls: &calls})
	defer tensor.Use(prev)
	a := tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float32{1, 2, 3, 4, 5, 6}))
	b := tensor.New(tensor.WithShape(3, 2), tensor.WithBacking([]float32{7, 8, 9, 10, 11, 12}))
	c, err := tensor.MatMul(a, b)
	if err != nil {
		t.Fatalf("MatMul: %v", err)
	}
	if calls.Load() != 1 {
		t.Errorf("MatMul called Sgemm %d times, want 1", calls.Load())
	}
	want := []float32{58, 64, 139, 154}
	got := dense.Data(c.(*tensor.Dense)).([]float32)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("MatMul = %v, want %v", got, want)
		}
	}
}
