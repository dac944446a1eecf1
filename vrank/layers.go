package vrank

import (
	"github.com/storyeval/storyeval/internal/parallel"
)

// The forward and backward passes of the blocks of a post-LN BERT encoder,
// written by hand. Each backward pass is checked against finite differences
// in float64 (backward_test.go). Reductions over rows (bias and LayerNorm
// gradients) are split by column, so every sum runs in row order and the
// result does not depend on the number of workers.

// minRows is the fewest rows worth a goroutine in the element-wise loops.
const minRows = 16

// linearForward computes y[rows×out] = x[rows×in]·Wᵀ + b.
func linearForward[T float](l *linearParams[T], x []T, rows int, y []T) {
	gemm(false, true, rows, l.out, l.in, 1, x, l.in, l.W, l.in, 0, y, l.out)
	parallel.Chunks(rows, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			yr := y[r*l.out : (r+1)*l.out]
			for j, b := range l.B {
				yr[j] += b
			}
		}
	})
}

// linearBackward accumulates the gradients of W and b into g and writes
// dx = dy·W (dx may be nil when the input needs no gradient).
func linearBackward[T float](l, g *linearParams[T], x, dy []T, rows int, dx []T) {
	linearBackwardInto(l, g, x, dy, rows, dx, 0)
}

// linearBackwardInto is linearBackward with dx = dy·W + beta·dx, so that
// beta 1 adds the input gradient to what dx holds.
func linearBackwardInto[T float](l, g *linearParams[T], x, dy []T, rows int, dx []T, beta T) {
	gemm(true, false, l.out, l.in, rows, 1, dy, l.out, x, l.in, 1, g.W, l.in)
	columnSums(dy, rows, l.out, g.B)
	if dx != nil {
		gemm(false, false, rows, l.in, l.out, 1, dy, l.out, l.W, l.in, beta, dx, l.in)
	}
}

// columnSums adds the column sums of x[rows×cols] to dst, each summed in
// row order.
func columnSums[T float](x []T, rows, cols int, dst []T) {
	parallel.Chunks(cols, 64, func(_, lo, hi int) {
		acc := make([]T, hi-lo)
		for r := 0; r < rows; r++ {
			xr := x[r*cols+lo : r*cols+hi]
			for j, v := range xr {
				acc[j] += v
			}
		}
		for j, v := range acc {
			dst[lo+j] += v
		}
	})
}

// normCache keeps what LayerNorm's backward pass needs: the normalised
// input and 1/σ per row.
type normCache[T float] struct {
	xhat, rstd []T
}

// layerNormForward computes y = γ·(x−μ)/√(σ²+eps) + β per row of width H
// (torch.nn.LayerNorm: biased variance), keeping the cache. y may alias x.
func layerNormForward[T float](n *normParams[T], x []T, rows, H int, eps float64, y []T, c *normCache[T], a *arena[T]) {
	c.xhat = a.get(rows * H)
	c.rstd = a.get(rows)
	parallel.Chunks(rows, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xr := x[r*H : (r+1)*H]
			var mean float64
			for _, v := range xr {
				mean += float64(v)
			}
			mean /= float64(H)
			var variance float64
			for _, v := range xr {
				d := float64(v) - mean
				variance += d * d
			}
			variance /= float64(H)
			rstd := T(1 / sqrtF(variance+eps))
			c.rstd[r] = rstd
			xh, yr := c.xhat[r*H:(r+1)*H], y[r*H:(r+1)*H]
			for j, v := range xr {
				xh[j] = (v - T(mean)) * rstd
				yr[j] = xh[j]*n.G[j] + n.B[j]
			}
		}
	})
}

// layerNormBackward accumulates dγ and dβ into g and writes dx (which may
// alias dy).
func layerNormBackward[T float](n, g *normParams[T], c *normCache[T], dy []T, rows, H int, dx []T) {
	parallel.Chunks(H, 64, func(_, lo, hi int) {
		for r := 0; r < rows; r++ {
			dr, xh := dy[r*H:(r+1)*H], c.xhat[r*H:(r+1)*H]
			for j := lo; j < hi; j++ {
				g.G[j] += dr[j] * xh[j]
				g.B[j] += dr[j]
			}
		}
	})
	parallel.Chunks(rows, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			dr, xh := dy[r*H:(r+1)*H], c.xhat[r*H:(r+1)*H]
			var sum, dot T
			for j := range dr {
				d := dr[j] * n.G[j]
				sum += d
				dot += d * xh[j]
			}
			sum /= T(H)
			dot /= T(H)
			rstd := c.rstd[r]
			out := dx[r*H : (r+1)*H]
			for j := range dr {
				out[j] = rstd * (dr[j]*n.G[j] - sum - xh[j]*dot)
			}
		}
	})
}

// geluForward computes the exact GELU x·Φ(x) = ½x(1+erf(x/√2)) (torch's
// default, BERT's "gelu").
func geluForward[T float](x, y []T) {
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := x[i]
			y[i] = v * T(0.5) * (1 + erfT(v*T(sqrtHalf)))
		}
	})
}

// geluBackward multiplies dy by GELU'(x) = Φ(x) + x·φ(x) in place.
func geluBackward[T float](x, dy []T) {
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := float64(x[i])
			cdf := 0.5 * (1 + erfF(v*sqrtHalf))
			pdf := expF(-0.5*v*v) * invSqrt2Pi
			dy[i] *= T(cdf + v*pdf)
		}
	})
}

// attentionCache keeps the attention probabilities of every (sequence,
// head), Sq×S each.
type attentionCache[T float] struct{ probs []T }

// attentionForward computes multi-head scaled dot-product attention for a
// batch of B sequences of S tokens: ctx = softmax(q·kᵀ/√dh + mask)·v per head,
// where masked keys (keyValid false) get probability exactly 0, as adding
// torch.finfo.min before the softmax does. q and ctx hold the first Sq
// tokens of each sequence (B·Sq rows: all tokens, or only the CLS token
// when Sq is 1), k and v all B·S.
//
// With drop active, the probabilities are dropped (stream: its mask site)
// before they weigh the values, as BERT's attention dropout; the cache keeps
// them undropped.
func attentionForward[T float](q, k, v []T, B, S, Sq, H, heads int, keyValid []bool, ctx []T, c *attentionCache[T], a *arena[T], drop encoderDropout, stream uint64) {
	dh := H / heads
	scale := T(sqrtF(float64(dh)))
	c.probs = a.get(B * heads * Sq * S)
	scratch := make([][]T, parallel.Workers(B*heads, 1))
	parallel.Chunks(B*heads, 1, func(w, lo, hi int) {
		for bh := lo; bh < hi; bh++ {
			b, h := bh/heads, bh%heads
			offQ, offK := b*Sq*H+h*dh, b*S*H+h*dh
			p := c.probs[bh*Sq*S : (bh+1)*Sq*S]
			gemm(false, true, Sq, S, dh, 1, q[offQ:], H, k[offK:], H, 0, p, S)
			valid := keyValid[b*S : (b+1)*S]
			for i := 0; i < Sq; i++ {
				row := p[i*S : (i+1)*S]
				maxv := T(0)
				first := true
				for j := range row {
					row[j] /= scale
					if valid[j] && (first || row[j] > maxv) {
						maxv, first = row[j], false
					}
				}
				var sum float64
				for j := range row {
					if !valid[j] {
						row[j] = 0
						continue
					}
					row[j] = softmaxExp(row[j] - maxv)
					sum += float64(row[j])
				}
				inv := T(1 / sum)
				for j := range row {
					row[j] *= inv
				}
			}
			weights := p
			if drop.active() {
				if scratch[w] == nil {
					scratch[w] = make([]T, Sq*S)
				}
				weights = scratch[w]
				for i, pv := range p {
					weights[i] = pv * T(drop.factor(stream, bh*Sq*S+i))
				}
			}
			gemm(false, false, Sq, dh, S, 1, weights, S, v[offK:], H, 0, ctx[offQ:], H)
		}
	})
}

// attentionBackward writes dq (B·Sq rows), dk and dv (B·S rows) from dctx,
// with the attention dropout of the forward pass (drop, stream).
func attentionBackward[T float](q, k, v []T, B, S, Sq, H, heads int, c *attentionCache[T], dctx, dq, dk, dv []T, drop encoderDropout, stream uint64) {
	dh := H / heads
	scale := T(sqrtF(float64(dh)))
	workers := parallel.Workers(B*heads, 1)
	scratch, dropped := make([][]T, workers), make([][]T, workers)
	parallel.Chunks(B*heads, 1, func(w, lo, hi int) {
		if scratch[w] == nil {
			scratch[w] = make([]T, Sq*S)
		}
		dp := scratch[w]
		for bh := lo; bh < hi; bh++ {
			b, h := bh/heads, bh%heads
			offQ, offK := b*Sq*H+h*dh, b*S*H+h*dh
			p := c.probs[bh*Sq*S : (bh+1)*Sq*S]
			weights := p
			if drop.active() {
				if dropped[w] == nil {
					dropped[w] = make([]T, Sq*S)
				}
				weights = dropped[w]
				for i, pv := range p {
					weights[i] = pv * T(drop.factor(stream, bh*Sq*S+i))
				}
			}
			gemm(false, true, Sq, S, dh, 1, dctx[offQ:], H, v[offK:], H, 0, dp, S)
			gemm(true, false, S, dh, Sq, 1, weights, S, dctx[offQ:], H, 0, dv[offK:], H)
			if drop.active() {
				for i := range dp {
					dp[i] *= T(drop.factor(stream, bh*Sq*S+i))
				}
			}
			for i := 0; i < Sq; i++ {
				pr, dr := p[i*S:(i+1)*S], dp[i*S:(i+1)*S]
				// The row sums of the score gradient are zero in exact
				// arithmetic (softmax ignores a shift of its input): a
				// float64 dot product keeps their rounding residue, which
				// is all the key bias's gradient consists of, small.
				var dot float64
				for j := range pr {
					dot += float64(pr[j]) * float64(dr[j])
				}
				for j := range pr {
					dr[j] = T(float64(pr[j]) * (float64(dr[j]) - dot) / float64(scale))
				}
			}
			gemm(false, false, Sq, dh, S, 1, dp, S, k[offK:], H, 0, dq[offQ:], H)
			gemm(true, false, S, dh, Sq, 1, dp, S, q[offQ:], H, 0, dk[offK:], H)
		}
	})
}
