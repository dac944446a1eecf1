// Package backendtest holds compute backends for tests: Counting, which
// shows which backend a model runs on.
package backendtest

import (
	"sync/atomic"

	"github.com/storyeval/storyeval/encoders/compute"
)

// Counting is a backend (the CPU's, when Backend is compute.CPU()) that
// counts its matrix products and frees: a model loaded onto it that runs
// no product there runs elsewhere, and its Close frees nothing.
type Counting struct {
	compute.Backend
	Gemms, Frees atomic.Int64
}

// NewCounting returns the CPU backend, counting.
func NewCounting() *Counting { return &Counting{Backend: compute.CPU()} }

// Gemm implements compute.Backend, counting.
func (b *Counting) Gemm(transA, transB bool, m, n, k int, alpha float32, a compute.Tensor, lda int, bt compute.Tensor, ldb int, beta float32, c compute.Tensor, ldc int) {
	b.Gemms.Add(1)
	b.Backend.Gemm(transA, transB, m, n, k, alpha, a, lda, bt, ldb, beta, c, ldc)
}

// Free implements compute.Backend, counting.
func (b *Counting) Free(t compute.Tensor) {
	b.Frees.Add(1)
	b.Backend.Free(t)
}
