package encoders

import (
	"fmt"
	"math/rand"
	"slices"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/nn"
)

// weightReader reads named parameters — from a checkpoint, from tensors in
// memory, or drawn at random — checking their shapes; the first error is
// kept and later reads are no-ops, so model constructors read every
// parameter and check err once. A constructor's sequence of reads is the
// architecture's parameter walk: the reader records it (walk), which is
// what the models' Params returns.
type weightReader struct {
	st     *checkpoint.State
	prefix string
	err    error
	// mem, when set, replaces the checkpoint: parameters by full name.
	mem map[string]nn.Param[float32]
	// share hands mem's slices to the backend without a copy
	// (SharedParamWeights).
	share bool
	// random, when set, replaces the checkpoint: every parameter exists and
	// is drawn from N(0, 0.02²), for benchmarks at full model size without
	// a weight file.
	random *rand.Rand
	// be receives the parameters (param).
	be compute.Backend
	// walk records every parameter read, in order; shared with root().
	walk *[]paramRef
}

// paramRef is one parameter of a built model: its full checkpoint name,
// its shape, and where its values are (a backend tensor, or host values
// for the few kept on the host such as CLIP's logit scale).
type paramRef struct {
	name  string
	shape []int
	t     compute.Tensor
	host  []float32
}

// model is what every architecture holds besides its layers: the backend
// its tensors live on and its parameter walk.
type model struct {
	be   compute.Backend
	walk []paramRef
}

// Params returns a copy of the model's parameters under their checkpoint
// names, shapes and order as its constructor read them (with the prefix
// the checkpoint had, if any): what nn.WriteSafetensors saves, what
// nn.ZerosLike turns into Adam moments, and what ParamWeights builds the
// same model from.
func (m *model) Params() []nn.Param[float32] {
	be := m.be
	out := make([]nn.Param[float32], len(m.walk))
	for i, p := range m.walk {
		data := make([]float32, nn.Size(p.shape))
		if p.t != nil {
			be.Download(data, p.t)
		} else {
			copy(data, p.host)
		}
		out[i] = nn.Param[float32]{Name: p.name, Shape: append([]int(nil), p.shape...), Data: data}
	}
	return out
}

// Weights is where a model's constructor (NewBERTFrom, NewALBERTFrom,
// NewViTFrom, NewCLIPFrom) reads its parameters: a checkpoint, tensors in
// memory (a trainer's), or random values.
type Weights struct {
	st     *checkpoint.State
	mem    map[string]nn.Param[float32]
	share  bool // mem's slices are adopted, not copied
	random bool
	seed   int64
	err    error
}

// CheckpointWeights reads the parameters from an open checkpoint; they are
// copied, so st may be closed after the model is built.
func CheckpointWeights(st *checkpoint.State) Weights { return Weights{st: st} }

// ParamWeights reads the parameters from tensors in memory, by name (as
// a checkpoint would hold them, e.g. another model's Params or a trainer's
// walk); the values are copied to the model's backend.
func ParamWeights(ps []nn.Param[float32]) Weights {
	mem := make(map[string]nn.Param[float32], len(ps))
	for _, p := range ps {
		if _, dup := mem[p.Name]; dup {
			return Weights{err: fmt.Errorf("parameter %q given twice", p.Name)}
		}
		mem[p.Name] = p
	}
	return Weights{mem: mem}
}

// SharedParamWeights is ParamWeights without the copy where the backend
// can adopt host memory (the CPU backend): the model then holds the very
// slices of ps, so the caller must not modify them while the model is in
// use (vrank.Model, whose weights never change, builds its encoder so).
// A device backend uploads them as ParamWeights does.
func SharedParamWeights(ps []nn.Param[float32]) Weights {
	w := ParamWeights(ps)
	w.share = w.err == nil
	return w
}

// RandomWeights draws every parameter from N(0, 0.02²) (BERT's
// initializer_range) with a generator seeded with seed, in the order of the
// architecture's walk: full-size models for benchmarks and test fixtures
// without a weight file. Every model built from it draws the same values.
func RandomWeights(seed int64) Weights { return Weights{random: true, seed: seed} }

// reader returns the weight reader of w, with the prefix probe is found
// under ("" or one of prefixes), onto backend be.
func (w Weights) reader(be compute.Backend, probe string, prefixes ...string) (*weightReader, error) {
	if w.err != nil {
		return nil, w.err
	}
	r := &weightReader{st: w.st, mem: w.mem, share: w.share, be: be, walk: new([]paramRef)}
	if w.random {
		r.random = rand.New(rand.NewSource(w.seed))
		return r, nil
	}
	if w.st == nil && w.mem == nil {
		return nil, fmt.Errorf("nil checkpoint")
	}
	for _, p := range append([]string{""}, prefixes...) {
		r.prefix = p
		if r.has(probe) {
			return r, nil
		}
	}
	return nil, fmt.Errorf("checkpoint has no %q (tried prefixes %q)", probe, prefixes)
}

// buildFrom builds a model with build from the weights w, read under the
// first of "" and prefixes at which probe exists, onto the backend opts
// choose.
func buildFrom[C, M any](w Weights, opts []Options, cfg C, build func(C, *weightReader) (M, error), probe string, prefixes ...string) (M, error) {
	var zero M
	be := optionsOf(opts).backend()
	r, err := w.reader(be, probe, prefixes...)
	if err != nil {
		return zero, err
	}
	m, err := build(cfg, r)
	if err != nil {
		return zero, err
	}
	if err := uploadFailed(be, m); err != nil {
		return zero, err
	}
	return m, nil
}

func (r *weightReader) has(name string) bool {
	if r.mem != nil {
		_, ok := r.mem[r.prefix+name]
		return ok
	}
	return r.random != nil || r.st.Has(r.prefix+name)
}

// info returns the stored shape of name; with random weights, fallback
// (absent when fallback is empty).
func (r *weightReader) info(name string, fallback ...int) ([]int, bool) {
	if r.random != nil {
		return fallback, len(fallback) > 0
	}
	if r.mem != nil {
		p, ok := r.mem[r.prefix+name]
		return p.Shape, ok
	}
	info, ok := r.st.Info(r.prefix + name)
	return info.Shape, ok
}

// root returns a reader of the same source without the prefix, for heads
// stored beside a prefixed encoder.
func (r *weightReader) root() *weightReader {
	return &weightReader{st: r.st, mem: r.mem, share: r.share, random: r.random, be: r.be, walk: r.walk}
}

// tensor reads name, checks it has the given shape and records it.
func (r *weightReader) tensor(name string, shape ...int) []float32 {
	data := r.read(name, shape...)
	if r.err == nil && r.walk != nil {
		*r.walk = append(*r.walk, paramRef{name: r.prefix + name, shape: shape, host: data})
	}
	return data
}

// read reads name from the reader's source and checks its shape.
func (r *weightReader) read(name string, shape ...int) []float32 {
	if r.err != nil {
		return nil
	}
	if r.random != nil {
		return nn.Normal[float32](nn.Size(shape), r.random, 0.02)
	}
	if r.mem != nil {
		p, ok := r.mem[r.prefix+name]
		switch {
		case !ok:
			r.err = fmt.Errorf("no parameter %s%s", r.prefix, name)
		case !slices.Equal(p.Shape, shape) || len(p.Data) != nn.Size(shape):
			r.err = fmt.Errorf("parameter %s%s has shape %v (%d values), want %v", r.prefix, name, p.Shape, len(p.Data), shape)
		case r.share:
			return p.Data
		default:
			return append([]float32(nil), p.Data...)
		}
		return nil
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
	t := compute.Adopt(r.be, data)
	if r.walk != nil {
		last := &(*r.walk)[len(*r.walk)-1]
		last.t, last.host = t, nil
	}
	return t
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

// readerWalker is the nn.Walker that reads an inference model's blocks
// from r onto its backend, so that the architectures' walks in encoders/nn
// (nn.WalkBERT, …) name and shape what a constructor reads.
type readerWalker struct {
	r   *weightReader
	eps float64 // the LayerNorms' epsilon
}

func (w readerWalker) Tensor(name string, t *compute.Tensor, shape ...int) {
	*t = w.r.param(name, shape...)
}

func (w readerWalker) Linear(name string, l *linear, out, in int) {
	*l = w.r.linear(name, out, in, true)
}

func (w readerWalker) LinearNoBias(name string, l *linear, out, in int) {
	*l = w.r.linear(name, out, in, false)
}

func (w readerWalker) PatchConv(name string, l *linear, out, channels, patch int) {
	*l = w.r.convAsLinear(name, out, channels, patch, true)
}

func (w readerWalker) Norm(name string, n *layerNorm, width int) {
	*n = w.r.layerNorm(name, width, w.eps)
}
