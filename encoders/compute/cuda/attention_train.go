package cuda

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// dropoutArgs are the arguments of dropout_f32 for one compute.Dropout and
// stream; active is false when nothing is dropped.
type dropoutArgs struct {
	active                  bool
	seed, stream, threshold uint64
	keep                    float32
}

// dropout applies the mask to the n values of b (element i of the stream
// at b's value i), as compute.DropoutHost.
func (q *Queue) dropout(b Buffer, n int, d dropoutArgs) error {
	if !d.active || n == 0 {
		return nil
	}
	return q.Launch("dropout_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(b.Ptr).Int64(int64(n)).Uint64(d.seed).Uint64(d.stream).
		Int64(0).Uint64(d.threshold).Float32(d.keep))
}

// Copy copies the first n values of src into dst on the queue.
func (q *Queue) Copy(dst, src Buffer, n int) error {
	if n > dst.N || n > src.N {
		return fmt.Errorf("cuda: copying %d values between buffers of %d and %d", n, src.N, dst.N)
	}
	if n == 0 {
		return nil
	}
	return q.locked(func() error { return q.d.drv.CopyDtoD(dst.Ptr, src.Ptr, uint64(n)*4, q.stream) })
}

// trainAttention is the geometry of AttentionSave and AttentionBackward:
// sq query rows per sequence (the first ones), S keys.
type trainAttention struct {
	AttentionShape
	sq int
}

func (a trainAttention) sizes() (nq, nk, np int) {
	H := a.Heads * a.HeadDim
	return a.Batch * a.sq * H, a.Batch * a.Seq * H, a.Batch * a.Heads * a.sq * a.Seq
}

// split copies src [B·rows, heads·dh] to dst [B, heads, rows, dh].
func (q *Queue) split(dst, src Buffer, a trainAttention, rows int) error {
	return q.Launch("split_heads_f32", Shape{Elems: a.Batch * rows * a.Heads * a.HeadDim}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(src.Ptr).
		Int(int32(a.Batch)).Int(int32(rows)).Int(int32(a.Heads)).Int(int32(a.HeadDim)))
}

// merge is split's inverse.
func (q *Queue) merge(dst, src Buffer, a trainAttention, rows int) error {
	return q.Launch("merge_heads_f32", Shape{Elems: a.Batch * rows * a.Heads * a.HeadDim}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(src.Ptr).
		Int(int32(a.Batch)).Int(int32(rows)).Int(int32(a.Heads)).Int(int32(a.HeadDim)))
}

// headGemm is one strided batched product over every (sequence, head):
// op(A) [m×k] · op(B) [k×n] for matrices stored row-major with strides
// of a whole matrix.
func (q *Queue) headGemm(a trainAttention, transA, transB bool, m, n, k int, alpha float32, A Buffer, lda, sa int, B Buffer, ldb, sb int, C Buffer, ldc, sc int) error {
	return q.Gemm(cudalib.Gemm{TransA: transA, TransB: transB, M: m, N: n, K: k, Alpha: alpha, A: A.Ptr, B: B.Ptr, C: C.Ptr,
		LDA: lda, LDB: ldb, LDC: ldc, StrideA: int64(sa), StrideB: int64(sb), StrideC: int64(sc), Batch: a.Batch * a.Heads})
}

// AttentionSave queues compute.TrainBackend's AttentionSave: the scores of
// the sq first queries of each sequence go straight into probs
// [B·heads·sq·S], become the masked softmax there, and (dropped out into
// the scores scratch when d is active) weigh the values.
func (q *Queue) AttentionSave(dst, qb, kb, vb, probs Buffer, a trainAttention, keyValid []bool, causal bool, d dropoutArgs) error {
	nq, nk, np := a.sizes()
	B, S, sq, nh, dh := a.Batch, a.Seq, a.sq, a.Heads, a.HeadDim
	switch {
	case B <= 0 || S <= 0 || sq <= 0 || sq > S || nh <= 0 || dh <= 0:
		return fmt.Errorf("cuda: attention over %d sequences of %d tokens (%d queries), %d heads of %d: bad sizes", B, S, sq, nh, dh)
	case qb.N < nq || dst.N < nq || kb.N < nk || vb.N < nk || probs.N < np:
		return fmt.Errorf("cuda: attention needs %d values in q and dst, %d in k and v, %d in probs; given %d, %d, %d, %d, %d", nq, nk, np, qb.N, dst.N, kb.N, vb.N, probs.N)
	case keyValid != nil && len(keyValid) != B*S:
		return fmt.Errorf("cuda: attention mask has %d keys for %d sequences of %d", len(keyValid), B, S)
	}
	heads, err := q.scratchBuffer(scratchHeads, 2*nq+2*nk)
	if err != nil {
		return fmt.Errorf("attention heads: %w", err)
	}
	qh, kh, vh, ch := heads.At(0), heads.At(nq), heads.At(nq+nk), heads.At(nq+2*nk)
	mask := Buffer{}
	if keyValid != nil {
		if mask, err = q.uploadBytes(boolBytes(keyValid), 0); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		dst, src Buffer
		rows     int
	}{{qh, qb, sq}, {kh, kb, S}, {vh, vb, S}} {
		if err := q.split(c.dst, c.src, a, c.rows); err != nil {
			return err
		}
	}
	if err := q.headGemm(a, false, true, sq, S, dh, a.Scale, qh, dh, sq*dh, kh, dh, S*dh, probs, S, sq*S); err != nil {
		return err
	}
	c := int32(0)
	if causal {
		c = 1
	}
	if err := q.Launch("masked_softmax_f32", Shape{Rows: B * nh * sq}, new(cudalib.Args).Ptr(probs.Ptr).Ptr(mask.Ptr).
		Int(int32(B)).Int(int32(nh)).Int(int32(sq)).Int(int32(S)).Int(c).Float32(0)); err != nil {
		return err
	}
	weights := probs
	if d.active {
		if weights, err = q.scratchBuffer(scratchScores, np); err != nil {
			return fmt.Errorf("attention weights: %w", err)
		}
		if err := q.Copy(weights, probs, np); err != nil {
			return err
		}
		if err := q.dropout(weights, np, d); err != nil {
			return err
		}
	}
	if err := q.headGemm(a, false, false, sq, dh, S, 1, weights, S, sq*S, vh, dh, S*dh, ch, dh, sq*dh); err != nil {
		return err
	}
	return q.merge(dst, ch, a, sq)
}

// AttentionBackward queues compute.TrainBackend's AttentionBackward from
// the saved probabilities: per (sequence, head) dP = dctx·vᵀ (times the
// dropout mask), dv = P'ᵀ·dctx (P' the dropped-out probabilities),
// dS = P∘(dP − rowdot(P, dP))·scale (softmax_bwd_f32), dq = dS·k and
// dk = dSᵀ·q, each a strided batched GEMM.
func (q *Queue) AttentionBackward(dq, dk, dv, dctx, qb, kb, vb, probs Buffer, a trainAttention, d dropoutArgs) error {
	nq, nk, np := a.sizes()
	S, sq, dh := a.Seq, a.sq, a.HeadDim
	if sq <= 0 || sq > S || dq.N < nq || dctx.N < nq || qb.N < nq || dk.N < nk || dv.N < nk || kb.N < nk || vb.N < nk || probs.N < np {
		return fmt.Errorf("cuda: attention backward over %d sequences of %d tokens (%d queries): buffers too small", a.Batch, S, sq)
	}
	heads, err := q.scratchBuffer(scratchHeads, 3*nq+4*nk)
	if err != nil {
		return fmt.Errorf("attention heads: %w", err)
	}
	ch, qh, dqh := heads.At(0), heads.At(nq), heads.At(2*nq)
	kh, vh, dkh, dvh := heads.At(3*nq), heads.At(3*nq+nk), heads.At(3*nq+2*nk), heads.At(3*nq+3*nk)
	scores, err := q.scratchBuffer(scratchScores, 2*np)
	if err != nil {
		return fmt.Errorf("attention score gradients: %w", err)
	}
	dp, weights := scores.At(0), probs
	for _, c := range []struct {
		dst, src Buffer
		rows     int
	}{{ch, dctx, sq}, {qh, qb, sq}, {kh, kb, S}, {vh, vb, S}} {
		if err := q.split(c.dst, c.src, a, c.rows); err != nil {
			return err
		}
	}
	if d.active {
		weights = scores.At(np)
		if err := q.Copy(weights, probs, np); err != nil {
			return err
		}
		if err := q.dropout(weights, np, d); err != nil {
			return err
		}
	}
	if err := q.headGemm(a, false, true, sq, S, dh, 1, ch, dh, sq*dh, vh, dh, S*dh, dp, S, sq*S); err != nil {
		return err
	}
	if err := q.headGemm(a, true, false, S, dh, sq, 1, weights, S, sq*S, ch, dh, sq*dh, dvh, dh, S*dh); err != nil {
		return err
	}
	if err := q.dropout(dp, np, d); err != nil {
		return err
	}
	if err := q.Launch("softmax_bwd_f32", Shape{Rows: a.Batch * a.Heads * sq}, new(cudalib.Args).Ptr(probs.Ptr).Ptr(dp.Ptr).
		Int(int32(a.Batch*a.Heads*sq)).Int(int32(S)).Float32(a.Scale)); err != nil {
		return err
	}
	if err := q.headGemm(a, false, false, sq, dh, S, 1, dp, S, sq*S, kh, dh, S*dh, dqh, dh, sq*dh); err != nil {
		return err
	}
	if err := q.headGemm(a, true, false, S, dh, sq, 1, dp, S, sq*S, qh, dh, sq*dh, dkh, dh, S*dh); err != nil {
		return err
	}
	for _, c := range []struct {
		dst, src Buffer
		rows     int
	}{{dq, dqh, sq}, {dk, dkh, S}, {dv, dvh, S}} {
		if err := q.merge(c.dst, c.src, a, c.rows); err != nil {
			return err
		}
	}
	return nil
}
