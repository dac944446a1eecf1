package cuda

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// AttentionShape is the geometry of multi-head attention over a batch:
// Batch sequences of Seq tokens, Heads heads of HeadDim values, scores
// multiplied by Scale (1/√HeadDim).
type AttentionShape struct {
	Batch, Seq, Heads, HeadDim int
	Scale                      float32
}

// Attention queues multi-head scaled dot-product attention,
// dst = softmax(q·kᵀ·scale + mask)·v per (sequence, head), with q, k, v and
// dst [Batch·Seq, Heads·HeadDim] as the CPU backend takes them. keyValid
// (nil: all valid) hides padding keys, causal the keys after the query;
// hidden keys get weight exactly 0, and a query with none visible uniform
// weights, as adding HF's most negative float32 gives.
//
// It splits q, k and v by head (so that each (sequence, head) is one
// matrix), computes all scores with one strided batched GEMM, the masked
// softmax with one kernel, the context with a second batched GEMM, and
// merges the heads into dst. The scores take Batch·Heads·Seq² values of the
// queue's scratch memory.
func (q *Queue) Attention(dst, qb, kb, vb Buffer, s AttentionShape, keyValid []bool, causal bool) error {
	B, S, nh, dh := s.Batch, s.Seq, s.Heads, s.HeadDim
	H := nh * dh
	n := B * S * H
	switch {
	case B <= 0 || S <= 0 || nh <= 0 || dh <= 0:
		return fmt.Errorf("cuda: attention over %d sequences of %d tokens, %d heads of %d: every size must be positive", B, S, nh, dh)
	case qb.N < n || kb.N < n || vb.N < n || dst.N < n:
		return fmt.Errorf("cuda: attention needs %d values in q, k, v and dst, given %d, %d, %d, %d", n, qb.N, kb.N, vb.N, dst.N)
	case keyValid != nil && len(keyValid) != B*S:
		return fmt.Errorf("cuda: attention mask has %d keys for %d sequences of %d", len(keyValid), B, S)
	}
	heads, err := q.scratchBuffer(scratchHeads, 4*n)
	if err != nil {
		return fmt.Errorf("attention heads: %w", err)
	}
	scores, err := q.scratchBuffer(scratchScores, B*nh*S*S)
	if err != nil {
		return fmt.Errorf("attention scores (%d sequences × %d heads × %d²): %w", B, nh, S, err)
	}
	mask := Buffer{}
	if keyValid != nil {
		if mask, err = q.uploadBytes(boolBytes(keyValid), 0); err != nil {
			return err
		}
	}
	qh, kh, vh, ch := heads.At(0), heads.At(n), heads.At(2*n), heads.At(3*n)
	for _, p := range [][2]Buffer{{qh, qb}, {kh, kb}, {vh, vb}} {
		if err := q.Launch("split_heads_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(p[0].Ptr).Ptr(p[1].Ptr).Int(int32(B)).Int(int32(S)).Int(int32(nh)).Int(int32(dh))); err != nil {
			return err
		}
	}
	mat := int64(S * dh)
	if err := q.Gemm(cudalib.Gemm{TransB: true, M: S, N: S, K: dh, Alpha: s.Scale, A: qh.Ptr, B: kh.Ptr, C: scores.Ptr,
		LDA: dh, LDB: dh, LDC: S, StrideA: mat, StrideB: mat, StrideC: int64(S * S), Batch: B * nh}); err != nil {
		return err
	}
	c := int32(0)
	if causal {
		c = 1
	}
	if err := q.Launch("masked_softmax_f32", Shape{Rows: B * nh * S}, new(cudalib.Args).Ptr(scores.Ptr).Ptr(mask.Ptr).
		Int(int32(B)).Int(int32(nh)).Int(int32(S)).Int(int32(S)).Int(c).Float32(0)); err != nil {
		return err
	}
	if err := q.Gemm(cudalib.Gemm{M: S, N: dh, K: S, Alpha: 1, A: scores.Ptr, B: vh.Ptr, C: ch.Ptr,
		LDA: S, LDB: dh, LDC: dh, StrideA: int64(S * S), StrideB: mat, StrideC: mat, Batch: B * nh}); err != nil {
		return err
	}
	return q.Launch("merge_heads_f32", Shape{Elems: n}, new(cudalib.Args).Ptr(dst.Ptr).Ptr(ch.Ptr).Int(int32(B)).Int(int32(S)).Int(int32(nh)).Int(int32(dh)))
}
