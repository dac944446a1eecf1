package encoders

import (
	"fmt"
	"math/rand"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
)

// weightReader reads named parameters from a checkpoint, checking their
// shapes; the first error is kept and later reads are no-ops, so model
// constructors read every parameter and check err once.
type weightReader struct {
	st     *checkpoint.State
	prefix string
	err    error
	// random, when set, replaces the checkpoint: every parameter exists and
	// is drawn from N(0, 0.02²), for benchmarks at full model size without
	// a weight file.
	random *rand.Rand
	// be receives the parameters (param).
	be compute.Backend
}

// newWeightReader picks the prefix under which probe exists: "" or one of
// prefixes (e.g. "bert." for a BertFor… checkpoint).
func newWeightReader(st *checkpoint.State, be compute.Backend, probe string, prefixes ...string) (*weightReader, error) {
	for _, p := range append([]string{""}, prefixes...) {
		if st.Has(p + probe) {
			return &weightReader{st: st, prefix: p, be: be}, nil
		}
	}
	return nil, fmt.Errorf("checkpoint has no %q (tried prefixes %q)", probe, prefixes)
}

// buildFromState builds a model with build from the weights of st, read
// under the first of "" and prefixes at which probe exists, onto the
// backend opts choose.
func buildFromState[C, M any](st *checkpoint.State, opts []Options, cfg C, build func(C, *weightReader) (M, error), probe string, prefixes ...string) (M, error) {
	var zero M
	if st == nil {
		return zero, fmt.Errorf("encoders: nil checkpoint")
	}
	r, err := newWeightReader(st, optionsOf(opts).backend(), probe, prefixes...)
	if err != nil {
		return zero, err
	}
	return build(cfg, r)
}

func (r *weightReader) has(name string) bool {
	return r.random != nil || r.st.Has(r.prefix+name)
}

// info returns the stored shape of name; with random weights, fallback
// (absent when fallback is empty).
func (r *weightReader) info(name string, fallback ...int) ([]int, bool) {
	if r.random != nil {
		return fallback, len(fallback) > 0
	}
	info, ok := r.st.Info(r.prefix + name)
	return info.Shape, ok
}

func (r *weightReader) randomTensor(shape []int) []float32 {
	n := 1
	for _, d := range shape {
		n *= d
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.random.NormFloat64() * 0.02)
	}
	return out
}

// root returns a reader of the same source without the prefix, for heads
// stored beside a prefixed encoder.
func (r *weightReader) root() *weightReader {
	return &weightReader{st: r.st, random: r.random, be: r.be}
}

// tensor reads name and checks it has the given shape.
func (r *weightReader) tensor(name string, shape ...int) []float32 {
	if r.err != nil {
		return nil
	}
	if r.random != nil {
		return r.randomTensor(shape)
	}
	if len(shape) == 0 {
		// A scalar (CLIP's logit_scale): tensor.Dense holds it as a value,
		// not a slice, so read it into a one-element buffer.
		if info, ok := r.st.Info(r.prefix + name); ok && len(info.Shape) != 0 {
			r.err = fmt.Errorf("parameter %s%s has shape %v, want a scalar", r.prefix, name, info.Shape)
			return nil
		}
		buf := make([]float32, 1)
		if err := r.st.ReadFloat32(r.prefix+name, buf); err != nil {
			r.err = fmt.Errorf("parameter %s%s: %w", r.prefix, name, err)
			return nil
		}
		return buf
	}
	t, err := r.st.Float32(r.prefix + name)
	if err != nil {
		r.err = fmt.Errorf("parameter %s%s: %w", r.prefix, name, err)
		return nil
	}
	data, _, err := float32Values(fmt.Sprintf("parameter %s%s", r.prefix, name), t, shape...)
	if err != nil {
		r.err = fmt.Errorf("%w (does config.json match the weights?)", err)
		return nil
	}
	return data
}

// param reads name like tensor and hands it to the backend; nil after an
// error.
func (r *weightReader) param(name string, shape ...int) compute.Tensor {
	data := r.tensor(name, shape...)
	if r.err != nil {
		return nil
	}
	return compute.Adopt(r.be, data)
}

// linear reads prefix.weight [out, in] and, if bias, prefix.bias [out].
func (r *weightReader) linear(prefix string, out, in int, bias bool) linear {
	l := linear{w: r.param(prefix+".weight", out, in), in: in, out: out}
	if bias {
		l.b = r.param(prefix+".bias", out)
	}
	return l
}

// layerNorm reads prefix.weight and prefix.bias [dim].
func (r *weightReader) layerNorm(prefix string, dim int, eps float64) layerNorm {
	return layerNorm{gamma: r.param(prefix+".weight", dim), beta: r.param(prefix+".bias", dim), eps: eps, width: dim}
}
