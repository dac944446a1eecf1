package encoders

import "math"

// layerNorm normalises each row of width len(gamma) to zero mean and unit
// variance (biased, as torch.nn.LayerNorm), then scales and shifts. Sums are
// taken in float64 so the result is within float32 rounding of PyTorch's.
type layerNorm struct {
	gamma, beta []float32
	eps         float64
}

// apply normalises the rows of x into dst (which may be x).
func (ln *layerNorm) apply(dst, x []float32) {
	w := len(ln.gamma)
	for r := 0; r+w <= len(x); r += w {
		row := x[r : r+w]
		var mean float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(w)
		var variance float64
		for _, v := range row {
			d := float64(v) - mean
			variance += d * d
		}
		variance /= float64(w)
		inv := 1 / math.Sqrt(variance+ln.eps)
		out := dst[r : r+w]
		for j, v := range row {
			out[j] = float32((float64(v)-mean)*inv)*ln.gamma[j] + ln.beta[j]
		}
	}
}
