package encoders

import (
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// encoderLayer is one transformer layer: self-attention and a two-layer MLP,
// each with a residual connection and a LayerNorm — after the residual in
// BERT and ALBERT (post-LN), before the sublayer in ViT and CLIP (pre-LN).
type encoderLayer struct {
	attn     selfAttention
	ln1, ln2 layerNorm // post-LN: after attention / after MLP; pre-LN: before them
	fc1, fc2 linear
	act      compute.Activation
	preNorm  bool
}

// slots returns pointers to l's blocks for an architecture's walk.
func (l *encoderLayer) slots() nn.LayerSlots[linear, layerNorm] {
	return nn.LayerSlots[linear, layerNorm]{
		Q: &l.attn.q, K: &l.attn.k, V: &l.attn.v, O: &l.attn.o,
		FFNIn: &l.fc1, FFNOut: &l.fc2, LN1: &l.ln1, LN2: &l.ln2,
	}
}

// layerNorm is a torch.nn.LayerNorm's weight, bias and eps.
type layerNorm struct {
	gamma, beta compute.Tensor
	eps         float64
	width       int
}

// apply normalises the rows of x into dst (which may be x).
func (ln *layerNorm) apply(be compute.Backend, dst, x compute.Tensor) {
	be.LayerNorm(dst, x, ln.gamma, ln.beta, ln.width, ln.eps)
}

// apply runs the layer on x [B·T, H] in place.
func (l *encoderLayer) apply(be compute.Backend, x compute.Tensor, batch, seq int, mask compute.Mask, s *scratch) {
	rows := batch * seq
	if l.preNorm {
		// h = x + attn(LN1(x)); x = h + fc2(act(fc1(LN2(h)))).
		l.ln1.apply(be, s.h1, x)
		l.attn.apply(be, s.attn, s.h1, batch, seq, mask, s)
		be.Add(x, s.attn)
		l.ln2.apply(be, s.h1, x)
		l.fc1.applyAct(be, s.mlp, s.h1, rows, l.act)
		l.fc2.apply(be, s.attn, s.mlp, rows)
		be.Add(x, s.attn)
		return
	}
	// h = LN1(x + attn(x)); x = LN2(h + fc2(act(fc1(h)))).
	l.attn.apply(be, s.attn, x, batch, seq, mask, s)
	be.Add(s.attn, x)
	l.ln1.apply(be, s.h1, s.attn)
	l.fc1.applyAct(be, s.mlp, s.h1, rows, l.act)
	l.fc2.apply(be, x, s.mlp, rows)
	be.Add(x, s.h1)
	l.ln2.apply(be, x, x)
}

// flops counts the multiply-adds (×2) of one application of the layer.
func (l *encoderLayer) flops(batch, seq int) float64 {
	rows := batch * seq
	f := l.attn.q.flops(rows) + l.attn.k.flops(rows) + l.attn.v.flops(rows) + l.attn.o.flops(rows)
	f += 2 * 2 * float64(batch) * float64(seq) * float64(seq) * float64(l.attn.q.out) // QKᵀ and PV
	return f + l.fc1.flops(rows) + l.fc2.flops(rows)
}
