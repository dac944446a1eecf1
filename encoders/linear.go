package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"gorgonia.org/tensor"
)

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

// Linear is PyTorch's nn.Linear, y = x·Wᵀ + b, with W stored [out, in]
// row-major and an optional bias [out]: the building block of the heads a
// metric attaches to an encoder's pooled or [CLS] outputs. It is immutable
// and safe for concurrent use.
type Linear struct{ l linear }

// NewLinear builds a Linear from a weight [out, in] (row-major, out·in
// values) and a bias of out values, or nil for none. The slices are copied.
func NewLinear(weight, bias []float32, out, in int) (*Linear, error) {
	if out <= 0 || in <= 0 {
		return nil, fmt.Errorf("encoders: linear layer of shape [%d, %d]", out, in)
	}
	if len(weight) != out*in {
		return nil, fmt.Errorf("encoders: linear weight has %d values, want %d×%d", len(weight), out, in)
	}
	if bias != nil && len(bias) != out {
		return nil, fmt.Errorf("encoders: linear bias has %d values, want %d", len(bias), out)
	}
	ensureBLAS()
	l := linear{w: append([]float32(nil), weight...), in: in, out: out}
	if bias != nil {
		l.b = append([]float32(nil), bias...)
	}
	return &Linear{l: l}, nil
}

// LoadLinear reads the nn.Linear module named module from st: module+".weight",
// a 2-D [out, in] tensor, and module+".bias" [out] when present. The
// weights are copied, so st may be closed afterwards. With a prefixed
// checkpoint, pass st.Sub(prefix) or the full module name.
func LoadLinear(st *checkpoint.State, module string) (*Linear, error) {
	if st == nil {
		return nil, fmt.Errorf("encoders: LoadLinear %q: nil checkpoint", module)
	}
	info, ok := st.Info(module + ".weight")
	if !ok {
		return nil, fmt.Errorf("encoders: checkpoint has no linear module %q (no %s.weight)", module, module)
	}
	if len(info.Shape) != 2 {
		return nil, fmt.Errorf("encoders: %s.weight has shape %v, want [out, in]", module, info.Shape)
	}
	out, in := info.Shape[0], info.Shape[1]
	if err := checkLinearSize(module, out, in); err != nil {
		return nil, err
	}
	r := &weightReader{st: st}
	l := r.linear(module, out, in, st.Has(module+".bias"))
	if r.err != nil {
		return nil, fmt.Errorf("encoders: %w", r.err)
	}
	ensureBLAS()
	return &Linear{l: l}, nil
}

// checkLinearSize bounds a linear module's stored shape before it is read.
func checkLinearSize(module string, out, in int) error {
	if out <= 0 || in <= 0 || out > maxWidth || in > maxWidth {
		return fmt.Errorf("encoders: %s.weight has shape [%d %d], outside 1..%d", module, out, in, maxWidth)
	}
	return nil
}

// In returns the input width.
func (l *Linear) In() int { return l.l.in }

// Out returns the output width.
func (l *Linear) Out() int { return l.l.out }

// HasBias reports whether the layer adds a bias.
func (l *Linear) HasBias() bool { return l.l.b != nil }

// ApplyRows applies the layer to len(x)/In() rows of In() values each and
// returns the rows of Out() values.
func (l *Linear) ApplyRows(x []float32) ([]float32, error) {
	if len(x) == 0 || len(x)%l.l.in != 0 {
		return nil, fmt.Errorf("encoders: linear input of %d values is not a whole number of rows of %d", len(x), l.l.in)
	}
	rows := len(x) / l.l.in
	dst := make([]float32, rows*l.l.out)
	l.l.apply(dst, x, rows)
	return dst, nil
}

// Apply applies the layer to a float32 tensor [rows, in] and returns
// [rows, out].
func (l *Linear) Apply(x *tensor.Dense) (*tensor.Dense, error) {
	data, shape, err := float32Values("linear input", x, anySize, l.l.in)
	if err != nil {
		return nil, fmt.Errorf("encoders: %w", err)
	}
	if shape[0] == 0 {
		return nil, fmt.Errorf("encoders: linear input has no rows")
	}
	dst := make([]float32, shape[0]*l.l.out)
	l.l.apply(dst, data, shape[0])
	return denseOf(dst, shape[0], l.l.out), nil
}
