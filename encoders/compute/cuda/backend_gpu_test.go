package cuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
)

// openBackend opens GPU 0 as a compute.Backend for a test, or skips.
func openBackend(t *testing.T, tf32 bool) *Backend {
	t.Helper()
	openGPU(t) // skips (or fails when required) without a usable GPU
	b, err := NewBackend(Options{TF32: tf32})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Err(); err != nil {
			t.Errorf("backend error: %v", err)
		}
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

// both runs op on the CPU backend and on b with the same inputs and
// compares the tensor out returns, within tol.
func both(t *testing.T, b *Backend, what string, tol float64, inputs [][]float32, op func(be compute.Backend, in []compute.Tensor) compute.Tensor) {
	t.Helper()
	run := func(be compute.Backend) []float32 {
		in := make([]compute.Tensor, len(inputs))
		for i, x := range inputs {
			in[i] = be.Upload(x)
		}
		out := op(be, in)
		got := make([]float32, out.Len())
		be.Download(got, out)
		return got
	}
	want := run(compute.CPU())
	got := run(b)
	if err := b.Err(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	closeTo(t, what+" (CUDA vs CPU backend)", got, want, tol)
}

// TestGPUBackendMatchesCPU runs every compute.Backend operation on the CPU
// backend and on the GPU with the same inputs.
func TestGPUBackendMatchesCPU(t *testing.T) {
	b := openBackend(t, false)
	r := rand.New(rand.NewPCG(31, 32))
	const rows, w = 65, 768
	x, bias := randomValues(r, rows*w, 3), randomValues(r, w, 1)
	for act := compute.Identity; act <= compute.Tanh; act++ {
		both(t, b, "BiasAct", 1e-6, [][]float32{x, bias}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
			be.BiasAct(in[0], in[1], w, act)
			return in[0]
		})
	}
	both(t, b, "Add", 0, [][]float32{x, randomValues(r, rows*w, 1)}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		be.Add(in[0], in[1])
		return in[0]
	})
	both(t, b, "LayerNorm", 1e-6, [][]float32{x, randomValues(r, w, 1), randomValues(r, w, 1)}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		out := be.Alloc(rows * w)
		be.LayerNorm(out, in[0], in[1], in[2], w, 1e-12)
		return out
	})
	const m, n, k = 70, 90, 768
	both(t, b, "Gemm", 2e-5, [][]float32{randomValues(r, m*k, 1), randomValues(r, n*k, 1), randomValues(r, m*n, 1)}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		be.Gemm(false, true, m, n, k, 0.5, in[0], k, in[1], k, 1, in[2], n)
		return in[2]
	})
	s := compute.AttentionShape{Batch: 3, Seq: 50, Heads: 12, HeadDim: 64}
	s.Scale = float32(1 / math.Sqrt(64))
	nq := s.Batch * s.Seq * s.Heads * s.HeadDim
	valid := make([]bool, s.Batch*s.Seq)
	for i := range valid {
		valid[i] = i%s.Seq < 30+i/s.Seq*10
	}
	for _, mask := range []compute.Mask{{}, {KeyValid: valid}, {KeyValid: valid, Causal: true}} {
		both(t, b, "Attention", 1e-5, [][]float32{randomValues(r, nq, 2), randomValues(r, nq, 2), randomValues(r, nq, 1)}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
			out := be.Alloc(nq)
			be.Attention(out, in[0], in[1], in[2], s, mask)
			return out
		})
	}
	const vocab, period, er = 30, 7, 21
	word, pos, typ := randomValues(r, vocab*w, 1), randomValues(r, period*w, 1), randomValues(r, 2*w, 1)
	ids, types := make([]int, er), make([]int, er)
	for i := range ids {
		ids[i], types[i] = r.IntN(vocab), r.IntN(2)
	}
	both(t, b, "Embed", 0, [][]float32{word, pos, typ}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		out := be.Alloc(er * w)
		be.Embed(out, w, in, [][]int{ids, nil, types}, []int{0, period, 0})
		be.Embed(out, w, []compute.Tensor{out, in[1]}, [][]int{nil, nil}, []int{0, period}) // in place, + positions again
		return out
	})
	both(t, b, "Rows", 0, [][]float32{x, randomValues(r, 4*w, 1)}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		be.Rows(in[1], in[0], w, []int{64, -1, 0, 3})
		return in[1]
	})
	both(t, b, "Normalize", 1e-6, [][]float32{x}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		be.Normalize(in[0], w)
		return in[0]
	})
	both(t, b, "Slice", 0, [][]float32{x}, func(be compute.Backend, in []compute.Tensor) compute.Tensor {
		v := be.Slice(in[0], 5*w, 9*w)
		be.Normalize(v, w) // only rows 5..8 change
		return in[0]
	})
}

// TestGPUBackendErrorIsKept checks that an out-of-memory allocation is
// kept as the backend's error (one line naming the call), that later
// operations do nothing, and that Download then zeroes its output.
func TestGPUBackendErrorIsKept(t *testing.T) {
	openGPU(t)
	b, err := NewBackend(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	x := b.Upload([]float32{1, 2, 3})
	b.Alloc(1 << 40) // 4 TiB
	err = b.Err()
	if err == nil || !errOutOfMemory(err) {
		t.Fatalf("after a 4 TiB allocation: %v, want an out-of-memory error", err)
	}
	if !errors.Is(err, compute.ErrOutOfMemory) {
		t.Errorf("%v does not match compute.ErrOutOfMemory", err)
	}
	got := []float32{9, 9, 9}
	b.Download(got, x)
	if got[0] != 0 || got[1] != 0 || got[2] != 0 || b.Err() != err {
		t.Errorf("Download after the error gave %v and error %v; want zeros and the first error kept", got, b.Err())
	}
	t.Logf("%v", err)
	// After ResetErr the backend runs again: a caller's retry with less.
	if reset := b.ResetErr(); reset != err || b.Err() != nil {
		t.Fatalf("ResetErr returned %v, then Err %v; want the kept error, then none", reset, b.Err())
	}
	y := b.Upload([]float32{4, 5, 6})
	b.Download(got, y)
	if got[0] != 4 || got[2] != 6 || b.Err() != nil {
		t.Errorf("after ResetErr: %v, error %v", got, b.Err())
	}
}

// TestGPUBackendWorkers runs the same operations on two workers (streams
// of their own) at once, each from its own goroutine, and checks both get
// the single-stream result.
func TestGPUBackendWorkers(t *testing.T) {
	b := openBackend(t, false)
	r := rand.New(rand.NewPCG(33, 34))
	s := compute.AttentionShape{Batch: 4, Seq: 64, Heads: 12, HeadDim: 64, Scale: 0.125}
	n := s.Batch * s.Seq * s.Heads * s.HeadDim
	q, k, v := randomValues(r, n, 2), randomValues(r, n, 2), randomValues(r, n, 1)
	H := s.HeadDim * s.Heads
	gamma, beta := randomValues(r, H, 1), randomValues(r, H, 1)
	run := func(be compute.Backend) []float32 {
		qt, kt, vt, out := be.Upload(q), be.Upload(k), be.Upload(v), be.Alloc(n)
		g, bt := be.Upload(gamma), be.Upload(beta)
		for i := 0; i < 5; i++ {
			be.Attention(out, qt, kt, vt, s, compute.Mask{Causal: true})
			be.LayerNorm(qt, out, g, bt, H, 1e-5)
			be.Add(qt, out)
		}
		got := make([]float32, n)
		be.Download(got, qt)
		return got
	}
	want := run(b)
	workers := make([]*Backend, 2)
	for i := range workers {
		w, err := b.Worker()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		workers[i] = w
	}
	results := make([][]float32, len(workers))
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run(w)
		}()
	}
	wg.Wait()
	for i, w := range workers {
		if err := w.Err(); err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
		closeTo(t, "worker result", results[i], want, 0)
	}
}
