package nn

import (
	"math"

	"github.com/storyeval/storyeval/encoders/compute"
)

// The forward and backward passes of the blocks of a transformer encoder
// (BERT's post-LN layers, ViT's pre-LN layers). Their math is the CPU
// backend's host kernels (compute.…Host), the same code the inference
// encoders run through compute.CPUBackend, instantiated in float32 for
// training and in float64 for the finite-difference checks of every
// backward pass (blocks_test.go). Reductions over rows (bias and LayerNorm
// gradients) are split by column, so every sum runs in row order and the
// result does not depend on the number of workers.

// MinRows is the fewest rows worth a goroutine in the row-wise loops;
// callers with their own row loops use it too.
const MinRows = 16

// LinearForward computes y[rows×out] = x[rows×in]·Wᵀ + b.
func LinearForward[T Float](l *Linear[T], x []T, rows int, y []T) {
	Gemm(false, true, rows, l.Out, l.In, 1, x, l.In, l.W, l.In, 0, y, l.Out)
	compute.BiasActSaveHost(y, y, l.B, l.Out, compute.Identity)
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
	compute.ColumnSums(dy, rows, l.Out, g.B)
	if dx != nil {
		Gemm(false, false, rows, l.In, l.Out, 1, dy, l.Out, l.W, l.In, beta, dx, l.In)
	}
}

// NormCache keeps what LayerNorm's backward pass needs: the normalised
// input and 1/σ per row.
type NormCache[T Float] struct {
	xhat, rstd []T
}

// LayerNormForward computes y = γ·(x−μ)/√(σ²+eps) + β per row of width H
// (torch.nn.LayerNorm: biased variance; compute.LayerNormHost, the CPU
// backend's LayerNorm), keeping the cache. y may alias x.
func LayerNormForward[T Float](n *Norm[T], x []T, rows, H int, eps float64, y []T, c *NormCache[T], a *Arena[T]) {
	c.xhat = a.Get(rows * H)
	c.rstd = a.Get(rows)
	compute.LayerNormHost(y[:rows*H], x[:rows*H], n.G, n.B, H, eps, c.xhat, c.rstd)
}

// LayerNormBackward accumulates dγ and dβ into g and writes dx (which may
// alias dy).
func LayerNormBackward[T Float](n, g *Norm[T], c *NormCache[T], dy []T, rows, H int, dx []T) {
	compute.LayerNormBackwardHost(dx[:rows*H], g.G, g.B, dy[:rows*H], c.xhat, c.rstd, n.G, H)
}

// GELUForward computes the exact GELU x·Φ(x) = ½x(1+erf(x/√2)) (torch's
// default, BERT's "gelu") into y: compute.ApplyHost.
func GELUForward[T Float](x, y []T) { compute.ApplyHost(compute.GELU, x, y) }

// GELUBackward multiplies dy by GELU'(x) = Φ(x) + x·φ(x) in place.
func GELUBackward[T Float](x, dy []T) { compute.ActivationBackward(compute.GELU, x, dy, dy) }

// AttentionCache keeps the attention probabilities of every (sequence,
// head), Sq×S each.
type AttentionCache[T Float] struct{ probs []T }

// attentionShape is the compute geometry of B sequences of S keys, Sq
// queries, width H split into heads.
func attentionShape(B, S, Sq, H, heads int) compute.AttentionShape {
	dh := H / heads
	return compute.AttentionShape{Batch: B, Seq: S, Heads: heads, HeadDim: dh, Queries: Sq,
		Scale: float32(1 / math.Sqrt(float64(dh)))}
}

// AttentionForward computes multi-head scaled dot-product attention for a
// batch of B sequences of S tokens: ctx = softmax(q·kᵀ/√dh + mask)·v per head,
// where masked keys (keyValid false) get probability exactly 0, as adding
// torch.finfo.min before the softmax does (compute.AttentionHost, the CPU
// backend's Attention). q and ctx hold the first Sq tokens of each
// sequence (B·Sq rows: all tokens, or only the CLS token when Sq is 1), k
// and v all B·S.
//
// With drop active, the probabilities are dropped (stream: its mask site, see Site)
// before they weigh the values, as BERT's attention dropout; the cache keeps
// them undropped.
func AttentionForward[T Float](q, k, v []T, B, S, Sq, H, heads int, keyValid []bool, ctx []T, c *AttentionCache[T], a *Arena[T], drop Dropout, stream uint64) {
	c.probs = a.Get(B * heads * Sq * S)
	compute.AttentionHost(compute.DefaultBLAS(), ctx, q, k, v, attentionShape(B, S, Sq, H, heads),
		compute.Mask{KeyValid: keyValid}, c.probs, drop, stream)
}

// AttentionBackward writes dq (B·Sq rows), dk and dv (B·S rows) from dctx,
// with the attention dropout of the forward pass (drop, stream).
func AttentionBackward[T Float](q, k, v []T, B, S, Sq, H, heads int, c *AttentionCache[T], dctx, dq, dk, dv []T, drop Dropout, stream uint64) {
	compute.AttentionBackwardHost(compute.DefaultBLAS(), dq, dk, dv, dctx, q, k, v, c.probs, attentionShape(B, S, Sq, H, heads), drop, stream)
}
