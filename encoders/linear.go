package encoders

// linear is a fully connected layer y = x·Wᵀ + b with PyTorch's layout: W is
// [out, in] row-major. b may be nil (CLIP's projections have no bias).
type linear struct {
	w       []float32
	b       []float32
	in, out int
}

// apply writes rows×out outputs of the rows×in inputs x into dst.
func (l *linear) apply(dst, x []float32, rows int) {
	gemm(false, true, rows, l.out, l.in, 1, x, l.in, l.w, l.in, 0, dst, l.out)
	if l.b != nil {
		for r := 0; r < rows; r++ {
			row := dst[r*l.out : (r+1)*l.out]
			for j, bj := range l.b {
				row[j] += bj
			}
		}
	}
}

// flops is the number of floating-point operations of apply for rows rows.
func (l *linear) flops(rows int) float64 { return 2 * float64(rows) * float64(l.in) * float64(l.out) }
