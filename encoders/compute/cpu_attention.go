package compute

import (
	"math"
	"runtime"

	"github.com/storyeval/storyeval/internal/parallel"
)

// MaskedScore is what HF adds to masked attention scores: the most
// negative float32, after which softmax gives those keys weight exactly 0.
const MaskedScore = -math.MaxFloat32

// Attention implements Backend with AttentionHost.
func (c HostBackend[T]) Attention(dst, q, k, v Tensor, s AttentionShape, mask Mask) {
	AttentionHost(c.blas(), hostOf[T](dst), hostOf[T](q), hostOf[T](k), hostOf[T](v), s, mask, nil, Dropout{}, 0)
}

// AttentionHost is the CPU backend's fused attention (Attention and
// AttentionSave): heads are independent, so each worker computes a
// contiguous range of (sequence, head) pairs, with a score buffer of its
// own unless probs (batch·heads·Queries·Seq) keeps the probabilities: per
// head, scores = Scale·q·kᵀ (one matrix product), masked scores set to
// MaskedScore, a softmax in float64 per row, and the (dropped-out)
// probabilities times v.
func AttentionHost[T Float](bl BLAS, dst, q, k, v []T, s AttentionShape, mask Mask, probs []T, d Dropout, stream uint64) {
	seq, sq, dh := s.Seq, s.QueryRows(), s.HeadDim
	hidden := s.Heads * dh
	n := runtime.GOMAXPROCS(0)
	scores, weights, rows := make([][]T, n), make([][]T, n), make([][]float64, n)
	parallel.Chunks(s.Batch*s.Heads, 1, func(w, lo, hi int) {
		if w >= n { // a worker beyond n (GOMAXPROCS raised during the call) gets its own
			w = -1
		}
		buf := workerBuf(rows, w, seq)
		for job := lo; job < hi; job++ {
			b, h := job/s.Heads, job%s.Heads
			offQ, offK := b*sq*hidden+h*dh, b*seq*hidden+h*dh
			var sc []T
			if probs != nil {
				sc = probs[job*sq*seq : (job+1)*sq*seq]
			} else {
				sc = workerBuf(scores, w, sq*seq)
			}
			HostGemm(bl, false, true, sq, seq, dh, T(s.Scale), q[offQ:], hidden, k[offK:], hidden, 0, sc, seq)
			for i := 0; i < sq; i++ {
				row := sc[i*seq : (i+1)*seq]
				for j := range row {
					if (mask.KeyValid != nil && !mask.KeyValid[b*seq+j]) || (mask.Causal && j > i) {
						row[j] = MaskedScore
					}
				}
				softmaxRow(row, buf)
			}
			p := sc
			if d.Active() {
				p = workerBuf(weights, w, sq*seq)
				for i, pv := range sc {
					p[i] = pv * T(d.Factor(stream, job*sq*seq+i))
				}
			}
			HostGemm(bl, false, false, sq, dh, seq, 1, p, seq, v[offK:], hidden, 0, dst[offQ:], hidden)
		}
	})
}

// workerBuf returns worker w's buffer of n values from bufs, allocating it
// on first use (w −1: a fresh one).
func workerBuf[E any](bufs [][]E, w, n int) []E {
	if w < 0 {
		return make([]E, n)
	}
	if bufs[w] == nil {
		bufs[w] = make([]E, n)
	}
	return bufs[w][:n]
}

// softmaxRow replaces x by softmax(x): SoftmaxInPlace in float32, the same
// with math.Exp in float64.
func softmaxRow[T Float](x []T, buf []float64) {
	if x32, ok := any(x).([]float32); ok {
		SoftmaxInPlace(x32, buf)
		return
	}
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	var sum float64
	for i, v := range x {
		e := math.Exp(float64(v - m))
		buf[i] = e
		sum += e
	}
	for i := range x {
		x[i] = T(buf[i] / sum)
	}
}

// AttentionBackwardHost is AttentionBackward on the host, from the
// probabilities AttentionHost saved: per (sequence, head), dP = dctx·vᵀ and
// dv = P'ᵀ·dctx (P' the dropped-out probabilities, dP then times the same
// mask), the softmax's backward dS = P∘(dP − Σ P∘dP)·Scale with the row dot
// product in float64, dq = dS·k and dk = dSᵀ·q.
func AttentionBackwardHost[T Float](bl BLAS, dq, dk, dv, dctx, q, k, v, probs []T, s AttentionShape, d Dropout, stream uint64) {
	seq, sq, dh := s.Seq, s.QueryRows(), s.HeadDim
	hidden := s.Heads * dh
	workers := parallel.Workers(s.Batch*s.Heads, 1)
	scratch, dropped := make([][]T, workers), make([][]T, workers)
	parallel.Chunks(s.Batch*s.Heads, 1, func(w, lo, hi int) {
		if w >= workers {
			w = -1
		}
		dp := workerBuf(scratch, w, sq*seq)
		for job := lo; job < hi; job++ {
			b, h := job/s.Heads, job%s.Heads
			offQ, offK := b*sq*hidden+h*dh, b*seq*hidden+h*dh
			base := job * sq * seq
			p := probs[base : base+sq*seq]
			weights := p
			if d.Active() {
				weights = workerBuf(dropped, w, sq*seq)
				for i, pv := range p {
					weights[i] = pv * T(d.Factor(stream, base+i))
				}
			}
			HostGemm(bl, false, true, sq, seq, dh, 1, dctx[offQ:], hidden, v[offK:], hidden, 0, dp, seq)
			HostGemm(bl, true, false, seq, dh, sq, 1, weights, seq, dctx[offQ:], hidden, 0, dv[offK:], hidden)
			if d.Active() {
				for i := range dp {
					dp[i] *= T(d.Factor(stream, base+i))
				}
			}
			for i := 0; i < sq; i++ {
				pr, dr := p[i*seq:(i+1)*seq], dp[i*seq:(i+1)*seq]
				// The row sums of the score gradient are zero in exact
				// arithmetic (softmax ignores a shift of its input): a
				// float64 dot product keeps their rounding residue, which
				// is all the key bias's gradient consists of, small.
				var dot float64
				for j := range pr {
					dot += float64(pr[j]) * float64(dr[j])
				}
				for j := range pr {
					dr[j] = T(float64(pr[j]) * (float64(dr[j]) - dot) * float64(s.Scale))
				}
			}
			HostGemm(bl, false, false, sq, dh, seq, 1, dp, seq, k[offK:], hidden, 0, dq[offQ:], hidden)
			HostGemm(bl, true, false, seq, dh, sq, 1, dp, seq, q[offQ:], hidden, 0, dk[offK:], hidden)
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
