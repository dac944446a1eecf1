package compute

import (
	"math"
	"runtime"

	"github.com/storyeval/storyeval/internal/parallel"
)

// MaskedScore is what HF adds to masked attention scores: the most
// negative float32, after which softmax gives those keys weight exactly 0.
const MaskedScore = -math.MaxFloat32

// Attention implements Backend: heads are independent, so each worker
// computes a contiguous range of (sequence, head) pairs with its own score
// buffer, two matrix products and a softmax per head.
func (c CPUBackend) Attention(dst, q, k, v Tensor, s AttentionShape, mask Mask) {
	out, qs, ks, vs := host(dst), host(q), host(k), host(v)
	bl := c.blas()
	seq, d := s.Seq, s.HeadDim
	hidden := s.Heads * d
	n := runtime.GOMAXPROCS(0)
	scores, rows := make([][]float32, n), make([][]float64, n)
	parallel.Chunks(s.Batch*s.Heads, 1, func(w, lo, hi int) {
		var sc []float32
		var buf []float64
		if w < n { // a worker beyond n (GOMAXPROCS raised during the call) gets its own
			if scores[w] == nil {
				scores[w], rows[w] = make([]float32, seq*seq), make([]float64, seq)
			}
			sc, buf = scores[w], rows[w]
		} else {
			sc, buf = make([]float32, seq*seq), make([]float64, seq)
		}
		for job := lo; job < hi; job++ {
			b, h := job/s.Heads, job%s.Heads
			off := b*seq*hidden + h*d
			bl.Sgemm(trans(false), trans(true), seq, seq, d, s.Scale, qs[off:], hidden, ks[off:], hidden, 0, sc, seq)
			for i := 0; i < seq; i++ {
				row := sc[i*seq : (i+1)*seq]
				for j := range row {
					if (mask.KeyValid != nil && !mask.KeyValid[b*seq+j]) || (mask.Causal && j > i) {
						row[j] = MaskedScore
					}
				}
				SoftmaxInPlace(row, buf)
			}
			bl.Sgemm(trans(false), trans(false), seq, d, seq, 1, sc, seq, vs[off:], hidden, 0, out[off:], hidden)
		}
	})
}

// SoftmaxInPlace replaces x by softmax(x), computing in float64 in buf
// (len(buf) ≥ len(x)); widening and narrowing run in loops of their own, as
// in InFloat64.
func SoftmaxInPlace(x []float32, buf []float64) {
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	fs := buf[:len(x)]
	for i, v := range x {
		fs[i] = float64(v - m)
	}
	var sum float64
	for i, f := range fs {
		e := ExpNonPositive(f) // f ≤ 0: the row maximum was subtracted
		fs[i] = e
		sum += e
	}
	inv := 1 / sum
	for i, f := range fs {
		x[i] = float32(f * inv)
	}
}
