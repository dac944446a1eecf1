package encoders

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// selfAttention is multi-head scaled dot-product self-attention with
// separate query, key, value and output projections, as in BERT, ALBERT,
// ViT and CLIP.
type selfAttention struct {
	q, k, v, o linear
	heads      int
}

// attentionMask says which keys a query may attend to. keyValid[b*T+j] is
// false for padding; causal additionally hides keys after the query
// (CLIP's text tower).
type attentionMask struct {
	keyValid []bool // nil: every key is valid
	causal   bool
}

// scratch holds the buffers of one forward pass, sized once for the batch
// and reused by every layer, so a forward pass does not allocate per layer.
type scratch struct {
	q, k, v, ctx, attn []float32   // [B·T, H]
	h1, mlp            []float32   // [B·T, H], [B·T, I]
	scores             [][]float32 // one [T, T] buffer per worker
	rows               [][]float64 // one [T] softmax buffer per worker
}

func newScratch(rows, hidden, inter, seq, workers int) *scratch {
	s := &scratch{
		q: make([]float32, rows*hidden), k: make([]float32, rows*hidden), v: make([]float32, rows*hidden),
		ctx: make([]float32, rows*hidden), attn: make([]float32, rows*hidden),
		h1: make([]float32, rows*hidden), mlp: make([]float32, rows*inter),
	}
	s.scores = make([][]float32, workers)
	s.rows = make([][]float64, workers)
	for i := range s.scores {
		s.scores[i] = make([]float32, seq*seq)
		s.rows[i] = make([]float64, seq)
	}
	return s
}

// buffers returns worker w's score and softmax buffers; a worker beyond
// those sized at the start (GOMAXPROCS raised during the pass) gets fresh
// ones.
func (s *scratch) buffers(w int) ([]float32, []float64) {
	if w < len(s.scores) {
		return s.scores[w], s.rows[w]
	}
	seq := len(s.rows[0])
	return make([]float32, seq*seq), make([]float64, seq)
}

// maskedScore is what HF adds to masked attention scores: the most negative
// float32, after which softmax gives those keys weight exactly 0.
const maskedScore = -math.MaxFloat32

// apply writes attention(x) for a batch of B sequences of T positions into
// dst, using s for intermediate buffers.
func (a *selfAttention) apply(dst, x []float32, batch, seq int, mask attentionMask, s *scratch) {
	hidden := a.q.out
	rows := batch * seq
	a.q.apply(s.q, x, rows)
	a.k.apply(s.k, x, rows)
	a.v.apply(s.v, x, rows)
	d := hidden / a.heads
	scale := float32(1 / math.Sqrt(float64(d)))
	// Heads are independent: each worker computes a contiguous range of
	// (sequence, head) pairs with its own score buffer.
	parallel.Chunks(batch*a.heads, 1, func(w, lo, hi int) {
		scores, row := s.buffers(w)
		for job := lo; job < hi; job++ {
			a.head(job/a.heads, job%a.heads, d, seq, hidden, scale, mask, scores, row, s)
		}
	})
	a.o.apply(dst, s.ctx, rows)
}

// head computes one head of one sequence: softmax(QKᵀ·scale + mask)·V.
func (a *selfAttention) head(b, h, d, seq, hidden int, scale float32, mask attentionMask, scores []float32, buf []float64, s *scratch) {
	off := b*seq*hidden + h*d
	sc := scores[:seq*seq]
	gemm(false, true, seq, seq, d, scale, s.q[off:], hidden, s.k[off:], hidden, 0, sc, seq)
	for i := 0; i < seq; i++ {
		row := sc[i*seq : (i+1)*seq]
		for j := range row {
			if (mask.keyValid != nil && !mask.keyValid[b*seq+j]) || (mask.causal && j > i) {
				row[j] = maskedScore
			}
		}
		softmaxInPlace(row, buf)
	}
	gemm(false, false, seq, d, seq, 1, sc, seq, s.v[off:], hidden, 0, s.ctx[off:], hidden)
}

// softmaxInPlace replaces x by softmax(x), computing in float64 in buf
// (len(buf) ≥ len(x)); widening and narrowing run in loops of their own, as
// in inFloat64.
func softmaxInPlace(x []float32, buf []float64) {
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
		e := expNonPositive(f) // f ≤ 0: the row maximum was subtracted
		fs[i] = e
		sum += e
	}
	inv := 1 / sum
	for i, f := range fs {
		x[i] = float32(f * inv)
	}
}
