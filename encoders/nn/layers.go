package nn

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/internal/npmath"
	"github.com/storyeval/storyeval/internal/parallel"
)

// The forward and backward passes of the blocks of a transformer encoder
// (BERT's post-LN layers, ViT's pre-LN layers), written by hand. Each
// backward pass is checked against finite differences in float64
// (blocks_test.go). Reductions over rows (bias and LayerNorm
// gradients) are split by column, so every sum runs in row order and the
// result does not depend on the number of workers.

// MinRows is the fewest rows worth a goroutine in the row-wise loops;
// callers with their own row loops use it too.
const MinRows = 16

// LinearForward computes y[rows×out] = x[rows×in]·Wᵀ + b.
func LinearForward[T Float](l *Linear[T], x []T, rows int, y []T) {
	Gemm(false, true, rows, l.Out, l.In, 1, x, l.In, l.W, l.In, 0, y, l.Out)
	parallel.Chunks(rows, MinRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			yr := y[r*l.Out : (r+1)*l.Out]
			for j, b := range l.B {
				yr[j] += b
			}
		}
	})
}

// LinearBackward accumulates the gradients of W and b into g and writes
// dx = dy·W (dx may be nil when the input needs no gradient).
func LinearBackward[T Float](l, g *Linear[T], x, dy []T, rows int, dx []T) {
	LinearBackwardInto(l, g, x, dy, rows, dx, 0)
}

// LinearBackwardInto is LinearBackward with dx = dy·W + beta·dx, so that
// beta 1 adds the input gradient to what dx holds.
func LinearBackwardInto[T Float](l, g *Linear[T], x, dy []T, rows int, dx []T, beta T) {
	Gemm(true, false, l.Out, l.In, rows, 1, dy, l.Out, x, l.In, 1, g.W, l.In)
	ColumnSums(dy, rows, l.Out, g.B)
	if dx != nil {
		Gemm(false, false, rows, l.In, l.Out, 1, dy, l.Out, l.W, l.In, beta, dx, l.In)
	}
}

// ColumnSums adds the column sums of x[rows×cols] to dst, each summed in
// row order.
func ColumnSums[T Float](x []T, rows, cols int, dst []T) {
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

// NormCache keeps what LayerNorm's backward pass needs: the normalised
// input and 1/σ per row.
type NormCache[T Float] struct {
	xhat, rstd []T
}

// LayerNormForward computes y = γ·(x−μ)/√(σ²+eps) + β per row of width H
// (torch.nn.LayerNorm: biased variance), keeping the cache. y may alias x.
func LayerNormForward[T Float](n *Norm[T], x []T, rows, H int, eps float64, y []T, c *NormCache[T], a *Arena[T]) {
	c.xhat = a.Get(rows * H)
	c.rstd = a.Get(rows)
	parallel.Chunks(rows, MinRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xr := x[r*H : (r+1)*H]
			mean, variance := compute.RowMoments(xr)
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

// LayerNormBackward accumulates dγ and dβ into g and writes dx (which may
// alias dy).
func LayerNormBackward[T Float](n, g *Norm[T], c *NormCache[T], dy []T, rows, H int, dx []T) {
	parallel.Chunks(H, 64, func(_, lo, hi int) {
		for r := 0; r < rows; r++ {
			dr, xh := dy[r*H:(r+1)*H], c.xhat[r*H:(r+1)*H]
			for j := lo; j < hi; j++ {
				g.G[j] += dr[j] * xh[j]
				g.B[j] += dr[j]
			}
		}
	})
	parallel.Chunks(rows, MinRows, func(_, lo, hi int) {
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

// GELUForward computes the exact GELU x·Φ(x) = ½x(1+erf(x/√2)) (torch's
// default, BERT's "gelu").
func GELUForward[T Float](x, y []T) {
	if x32, ok := any(x).([]float32); ok {
		// float32: the encoders' erf, computed on float64 blocks with the
		// widening and narrowing in loops of their own (a conversion inside
		// the arithmetic loop serialises it on amd64).
		y32 := any(y).([]float32)
		geluBlocks(x32, func(fs []float64) {
			for i, f := range fs {
				fs[i] = 0.5 * f * (1 + npmath.Erf32(f*sqrtHalf))
			}
		}, func(lo int, fs []float64) {
			out := y32[lo : lo+len(fs)]
			for i := range out {
				out[i] = float32(fs[i])
			}
		})
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := x[i]
			y[i] = v * T(0.5) * (1 + Erf(v*T(sqrtHalf)))
		}
	})
}

// GELUBackward multiplies dy by GELU'(x) = Φ(x) + x·φ(x) in place.
func GELUBackward[T Float](x, dy []T) {
	if x32, ok := any(x).([]float32); ok {
		dy32 := any(dy).([]float32)
		geluBlocks(x32, func(fs []float64) {
			for i, v := range fs {
				cdf := 0.5 * (1 + npmath.Erf32(v*sqrtHalf))
				fs[i] = cdf + v*expF(-0.5*v*v)*invSqrt2Pi
			}
		}, func(lo int, fs []float64) {
			out := dy32[lo : lo+len(fs)]
			for i := range out {
				out[i] *= float32(fs[i])
			}
		})
		return
	}
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := float64(x[i])
			cdf := 0.5 * (1 + math.Erf(v*sqrtHalf))
			pdf := expF(-0.5*v*v) * invSqrt2Pi
			dy[i] *= T(cdf + v*pdf)
		}
	})
}

// geluBlock is the length of the float64 blocks of the float32 GELU.
const geluBlock = 256

// geluBlocks widens x block by block into float64, lets compute work on the
// block in place, and hands the block to narrow with its offset in x.
func geluBlocks(x []float32, compute func(fs []float64), narrow func(lo int, fs []float64)) {
	parallel.Chunks(len(x), 4096, func(_, lo, hi int) {
		var block [geluBlock]float64
		for start := lo; start < hi; start += geluBlock {
			xs := x[start:min(start+geluBlock, hi)]
			fs := block[:len(xs)]
			for i, v := range xs {
				fs[i] = float64(v)
			}
			compute(fs)
			narrow(start, fs)
		}
	})
}

// AttentionCache keeps the attention probabilities of every (sequence,
// head), Sq×S each.
type AttentionCache[T Float] struct{ probs []T }

// AttentionForward computes multi-head scaled dot-product attention for a
// batch of B sequences of S tokens: ctx = softmax(q·kᵀ/√dh + mask)·v per head,
// where masked keys (keyValid false) get probability exactly 0, as adding
// torch.finfo.min before the softmax does. q and ctx hold the first Sq
// tokens of each sequence (B·Sq rows: all tokens, or only the CLS token
// when Sq is 1), k and v all B·S.
//
// With drop active, the probabilities are dropped (stream: its mask site, see Site)
// before they weigh the values, as BERT's attention dropout; the cache keeps
// them undropped.
func AttentionForward[T Float](q, k, v []T, B, S, Sq, H, heads int, keyValid []bool, ctx []T, c *AttentionCache[T], a *Arena[T], drop Dropout, stream uint64) {
	dh := H / heads
	scale := T(sqrtF(float64(dh)))
	c.probs = a.Get(B * heads * Sq * S)
	scratch := make([][]T, parallel.Workers(B*heads, 1))
	parallel.Chunks(B*heads, 1, func(w, lo, hi int) {
		for bh := lo; bh < hi; bh++ {
			b, h := bh/heads, bh%heads
			offQ, offK := b*Sq*H+h*dh, b*S*H+h*dh
			p := c.probs[bh*Sq*S : (bh+1)*Sq*S]
			Gemm(false, true, Sq, S, dh, 1, q[offQ:], H, k[offK:], H, 0, p, S)
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
					row[j] = SoftmaxExp(row[j] - maxv)
					sum += float64(row[j])
				}
				inv := T(1 / sum)
				for j := range row {
					row[j] *= inv
				}
			}
			weights := p
			if drop.Active() {
				if scratch[w] == nil {
					scratch[w] = make([]T, Sq*S)
				}
				weights = scratch[w]
				for i, pv := range p {
					weights[i] = pv * T(drop.Factor(stream, bh*Sq*S+i))
				}
			}
			Gemm(false, false, Sq, dh, S, 1, weights, S, v[offK:], H, 0, ctx[offQ:], H)
		}
	})
}

// AttentionBackward writes dq (B·Sq rows), dk and dv (B·S rows) from dctx,
// with the attention dropout of the forward pass (drop, stream).
func AttentionBackward[T Float](q, k, v []T, B, S, Sq, H, heads int, c *AttentionCache[T], dctx, dq, dk, dv []T, drop Dropout, stream uint64) {
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
			if drop.Active() {
				if dropped[w] == nil {
					dropped[w] = make([]T, Sq*S)
				}
				weights = dropped[w]
				for i, pv := range p {
					weights[i] = pv * T(drop.Factor(stream, bh*Sq*S+i))
				}
			}
			Gemm(false, true, Sq, S, dh, 1, dctx[offQ:], H, v[offK:], H, 0, dp, S)
			Gemm(true, false, S, dh, Sq, 1, weights, S, dctx[offQ:], H, 0, dv[offK:], H)
			if drop.Active() {
				for i := range dp {
					dp[i] *= T(drop.Factor(stream, bh*Sq*S+i))
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
			Gemm(false, false, Sq, dh, S, 1, dp, S, k[offK:], H, 0, dq[offQ:], H)
			Gemm(true, false, S, dh, Sq, 1, dp, S, q[offQ:], H, 0, dk[offK:], H)
		}
	})
}
