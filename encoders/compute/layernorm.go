package compute

import (
	"math"

	"github.com/storyeval/storyeval/internal/parallel"
)

// minRows is the fewest rows worth a goroutine in the row-wise kernels.
const minRows = 16

// LayerNormHost normalises each row of width values of x into dst (which
// may be x): torch.nn.LayerNorm with its biased variance, the statistics
// summed in float64 (RowMoments), x̂ = (x−μ)/√(σ²+eps) rounded once to T,
// dst = x̂·γ + β. With non-nil xhat (rows·width) and rstd (rows) it also
// keeps x̂ and 1/√(σ²+eps) for LayerNormBackwardHost. The CPU backend's
// LayerNorm and LayerNormSave, and encoders/nn's LayerNorm, are this
// kernel.
func LayerNormHost[T Float](dst, x, gamma, beta []T, w int, eps float64, xhat, rstd []T) {
	parallel.Chunks(len(x)/w, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*w : (r+1)*w]
			mean, variance := RowMoments(row)
			inv := 1 / math.Sqrt(variance+eps)
			o := dst[r*w : (r+1)*w]
			if xhat == nil {
				for j, v := range row {
					o[j] = T((float64(v)-mean)*inv)*gamma[j] + beta[j]
				}
				continue
			}
			rstd[r] = T(inv)
			xh := xhat[r*w : (r+1)*w]
			for j, v := range row {
				xh[j] = T((float64(v) - mean) * inv)
				o[j] = xh[j]*gamma[j] + beta[j]
			}
		}
	})
}

// LayerNormBackwardHost writes, per row of width values, dx =
// rstd·(d − mean(d) − x̂·mean(d·x̂)) with d = dy·γ (dx may be dy), and
// accumulates Σ dy·x̂ into dgamma and Σ dy into dbeta, each summed in row
// order (split by column across workers).
func LayerNormBackwardHost[T Float](dx, dgamma, dbeta, dy, xhat, rstd, gamma []T, w int) {
	rows := len(dy) / w
	parallel.Chunks(w, 64, func(_, lo, hi int) {
		for r := 0; r < rows; r++ {
			dr, xh := dy[r*w:(r+1)*w], xhat[r*w:(r+1)*w]
			for j := lo; j < hi; j++ {
				dgamma[j] += dr[j] * xh[j]
				dbeta[j] += dr[j]
			}
		}
	})
	parallel.Chunks(rows, minRows, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			dr, xh := dy[r*w:(r+1)*w], xhat[r*w:(r+1)*w]
			var sum, dot T
			for j := range dr {
				d := dr[j] * gamma[j]
				sum += d
				dot += d * xh[j]
			}
			sum /= T(w)
			dot /= T(w)
			s := rstd[r]
			out := dx[r*w : (r+1)*w]
			for j := range dr {
				out[j] = s * (dr[j]*gamma[j] - sum - xh[j]*dot)
			}
		}
	})
}
