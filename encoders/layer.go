package encoders

// encoderLayer is one transformer layer: self-attention and a two-layer MLP,
// each with a residual connection and a LayerNorm — after the residual in
// BERT and ALBERT (post-LN), before the sublayer in ViT and CLIP (pre-LN).
type encoderLayer struct {
	attn     selfAttention
	ln1, ln2 layerNorm // post-LN: after attention / after MLP; pre-LN: before them
	fc1, fc2 linear
	act      activation
	preNorm  bool
}

// apply runs the layer on x [B·T, H] in place.
func (l *encoderLayer) apply(x []float32, batch, seq int, mask attentionMask, s *scratch) {
	rows := batch * seq
	hidden := l.fc2.out
	n := rows * hidden
	if l.preNorm {
		// h = x + attn(LN1(x)); x = h + fc2(act(fc1(LN2(h)))).
		l.ln1.apply(s.h1[:n], x[:n])
		l.attn.apply(s.attn[:n], s.h1[:n], batch, seq, mask, s)
		addInPlace(x[:n], s.attn[:n])
		l.ln2.apply(s.h1[:n], x[:n])
		l.fc1.apply(s.mlp, s.h1[:n], rows)
		l.act(s.mlp[:rows*l.fc1.out])
		l.fc2.apply(s.attn[:n], s.mlp, rows)
		addInPlace(x[:n], s.attn[:n])
		return
	}
	// h = LN1(x + attn(x)); x = LN2(h + fc2(act(fc1(h)))).
	l.attn.apply(s.attn[:n], x[:n], batch, seq, mask, s)
	addInPlace(s.attn[:n], x[:n])
	l.ln1.apply(s.h1[:n], s.attn[:n])
	l.fc1.apply(s.mlp, s.h1[:n], rows)
	l.act(s.mlp[:rows*l.fc1.out])
	l.fc2.apply(x[:n], s.mlp, rows)
	addInPlace(x[:n], s.h1[:n])
	l.ln2.apply(x[:n], x[:n])
}

func addInPlace(dst, x []float32) {
	for i, v := range x {
		dst[i] += v
	}
}

// flops counts the multiply-adds (×2) of one application of the layer.
func (l *encoderLayer) flops(batch, seq int) float64 {
	rows := batch * seq
	f := l.attn.q.flops(rows) + l.attn.k.flops(rows) + l.attn.v.flops(rows) + l.attn.o.flops(rows)
	f += 2 * 2 * float64(batch) * float64(seq) * float64(seq) * float64(l.attn.q.out) // QKᵀ and PV
	return f + l.fc1.flops(rows) + l.fc2.flops(rows)
}
