package encoders

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// selfAttention is multi-head scaled dot-product self-attention with
// separate query, key, value and output projections, as in BERT, ALBERT,
// ViT and CLIP.
type selfAttention struct {
	q, k, v, o linear
	heads      int
}

// scratch holds the tensors of one forward pass, sized once for the batch
// and reused by every layer, so a forward pass does not allocate per layer.
type scratch struct {
	q, k, v, ctx, attn compute.Tensor // [B·T, H]
	h1, mlp            compute.Tensor // [B·T, H], [B·T, I]
}

func newScratch(be compute.Backend, rows, hidden, inter int) *scratch {
	n := rows * hidden
	return &scratch{q: be.Alloc(n), k: be.Alloc(n), v: be.Alloc(n), ctx: be.Alloc(n), attn: be.Alloc(n),
		h1: be.Alloc(n), mlp: be.Alloc(rows * inter)}
}

// free returns the scratch tensors to the backend.
func (s *scratch) free(be compute.Backend) {
	for _, t := range []compute.Tensor{s.q, s.k, s.v, s.ctx, s.attn, s.h1, s.mlp} {
		be.Free(t)
	}
}

// apply writes attention(x) for a batch of B sequences of T positions into
// dst, using s for intermediate tensors.
func (a *selfAttention) apply(be compute.Backend, dst, x compute.Tensor, batch, seq int, mask compute.Mask, s *scratch) {
	hidden := a.q.out
	rows := batch * seq
	a.q.apply(be, s.q, x, rows)
	a.k.apply(be, s.k, x, rows)
	a.v.apply(be, s.v, x, rows)
	d := hidden / a.heads
	be.Attention(s.ctx, s.q, s.k, s.v, compute.AttentionShape{Batch: batch, Seq: seq, Heads: a.heads, HeadDim: d,
		Scale: float32(1 / math.Sqrt(float64(d)))}, mask)
	a.o.apply(be, dst, s.ctx, rows)
}
