package encoders

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"gorgonia.org/tensor"
)

// linear is a fully connected layer y = x·Wᵀ + b with PyTorch's layout: W is
// [out, in] row-major. b may be nil (CLIP's projections have no bias).
type linear struct {
	w, b    compute.Tensor
	in, out int
}

// apply writes rows×out outputs of the rows×in inputs x into dst.
func (l *linear) apply(be compute.Backend, dst, x compute.Tensor, rows int) {
	l.applyAct(be, dst, x, rows, compute.Identity)
}

// applyAct is apply followed by an activation, fused with the bias add.
func (l *linear) applyAct(be compute.Backend, dst, x compute.Tensor, rows int, act compute.Activation) {
	be.Gemm(false, true, rows, l.out, l.in, 1, x, l.in, l.w, l.in, 0, dst, l.out)
	if l.b != nil || act != compute.Identity {
		be.BiasAct(dst, l.b, l.out, act)
	}
}

// flops is the number of floating-point operations of apply for rows rows.
func (l *linear) flops(rows int) float64 { return 2 * float64(rows) * float64(l.in) * float64(l.out) }

// Linear is PyTorch's nn.Linear, y = x·Wᵀ + b, with W stored [out, in]
// row-major and an optional bias [out]: the building block of the heads a
// metric attaches to an encoder's pooled or [CLS] outputs. It is immutable
// and safe for concurrent use.
type Linear struct {
	l  linear
	be compute.Backend
}

// NewLinear builds a Linear from a weight [out, in] (row-major, out·in
// values) and a bias of out values, or nil for none. The slices are copied
// (to opts' backend).
func NewLinear(weight, bias []float32, out, in int, opts ...Options) (*Linear, error) {
	if out <= 0 || in <= 0 {
		return nil, fmt.Errorf("linear layer of shape [%d, %d]", out, in)
	}
	if len(weight) != out*in {
		return nil, fmt.Errorf("linear weight has %d values, want %d×%d", len(weight), out, in)
	}
	if bias != nil && len(bias) != out {
		return nil, fmt.Errorf("linear bias has %d values, want %d", len(bias), out)
	}
	be := optionsOf(opts).backend()
	l := linear{w: be.Upload(weight), in: in, out: out}
	if bias != nil {
		l.b = be.Upload(bias)
	}
	return newLinear(l, be)
}

// newLinear wraps l, whose weights were handed to be, checking that be
// kept no failure while they were uploaded.
func newLinear(l linear, be compute.Backend) (*Linear, error) {
	lin := &Linear{l: l, be: be}
	if err := uploadFailed(be, lin); err != nil {
		return nil, err
	}
	return lin, nil
}

// LoadLinear reads the nn.Linear module named module from st: module+".weight",
// a 2-D [out, in] tensor, and module+".bias" [out] when present. The
// weights are copied, so st may be closed afterwards. With a prefixed
// checkpoint, pass st.Sub(prefix) or the full module name.
func LoadLinear(st *checkpoint.State, module string, opts ...Options) (*Linear, error) {
	if st == nil {
		return nil, fmt.Errorf("LoadLinear %q: nil checkpoint", module)
	}
	info, ok := st.Info(module + ".weight")
	if !ok {
		return nil, fmt.Errorf("checkpoint has no linear module %q (no %s.weight)", module, module)
	}
	if len(info.Shape) != 2 {
		return nil, fmt.Errorf("%s.weight has shape %v, want [out, in]", module, info.Shape)
	}
	out, in := info.Shape[0], info.Shape[1]
	if err := checkLinearSize(module, out, in); err != nil {
		return nil, err
	}
	be := optionsOf(opts).backend()
	r := &weightReader{st: st, be: be}
	l := r.linear(module, out, in, st.Has(module+".bias"))
	if r.err != nil {
		return nil, fmt.Errorf("%w", r.err)
	}
	return newLinear(l, be)
}

// checkLinearSize bounds a linear module's stored shape before it is read.
func checkLinearSize(module string, out, in int) error {
	if out <= 0 || in <= 0 || out > maxWidth || in > maxWidth {
		return fmt.Errorf("%s.weight has shape [%d %d], outside 1..%d", module, out, in, maxWidth)
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
		return nil, fmt.Errorf("linear input of %d values is not a whole number of rows of %d", len(x), l.l.in)
	}
	return l.l.applyHost(l.be, "linear", x, len(x)/l.l.in)
}

// applyHost applies the layer to host rows: upload, product, download;
// what names the layer in the error of a failed backend.
func (l *linear) applyHost(be compute.Backend, what string, x []float32, rows int) ([]float32, error) {
	in := be.Upload(x)
	out := be.Alloc(rows * l.out)
	l.apply(be, out, in, rows)
	dst := make([]float32, rows*l.out)
	be.Download(dst, out)
	be.Free(in)
	be.Free(out)
	if err := compute.Err(be); err != nil {
		return nil, fmt.Errorf("%s on %d rows of %d on %s: %w", what, rows, l.in, be.Name(), err)
	}
	return dst, nil
}

// Close gives the layer's weights back to its backend (device memory on a
// GPU). The layer must not be used afterwards; Close may be called more
// than once.
func (l *Linear) Close() error {
	for _, t := range []*compute.Tensor{&l.l.w, &l.l.b} {
		if *t != nil {
			l.be.Free(*t)
			*t = nil
		}
	}
	return nil
}

// Apply applies the layer to a float32 tensor [rows, in] and returns
// [rows, out].
func (l *Linear) Apply(x *tensor.Dense) (*tensor.Dense, error) {
	data, shape, err := float32Values("linear input", x, anySize, l.l.in)
	if err != nil {
		return nil, err
	}
	if shape[0] == 0 {
		return nil, fmt.Errorf("linear input has no rows")
	}
	y, err := l.l.applyHost(l.be, "linear", data, shape[0])
	if err != nil {
		return nil, err
	}
	return denseOf(y, shape[0], l.l.out), nil
}
