package nn

import (
	"fmt"
	"io"
	"math/rand"
	"slices"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// Param is one parameter tensor of a model: its checkpoint (state_dict)
// name, its shape as stored, and its values (row-major).
//
// A model declares its parameters once, as a walk — a function that calls
// a TensorNamer for every tensor in state_dict order (the encoders'
// architectures: their constructors; the trainers: their TensorNamer
// methods) — and every use of the list comes from that walk: loading
// (ReadParams), saving (WriteSafetensors), random initialisation
// (InitNormal), gradients and Adam moments (ZerosLike, Values).
type Param[T Float] struct {
	Name  string
	Shape []int
	Data  []T
}

// Collect runs a parameter walk and returns the parameters in walk order;
// their Data alias the model's tensors.
func Collect[T Float](walk func(add TensorNamer[T])) []Param[T] {
	var ps []Param[T]
	walk(func(name string, data []T, shape ...int) {
		ps = append(ps, Param[T]{Name: name, Shape: slices.Clone(shape), Data: data})
	})
	return ps
}

// ZerosLike returns zeroed tensors of the names and shapes of ps: a
// model's gradients, or Adam's moment estimates.
func ZerosLike[T Float](ps []Param[T]) []Param[T] {
	out := make([]Param[T], len(ps))
	for i, p := range ps {
		out[i] = Param[T]{Name: p.Name, Shape: slices.Clone(p.Shape), Data: make([]T, len(p.Data))}
	}
	return out
}

// Values returns the Data of every parameter, in order (Adam.Update's
// arguments).
func Values[T Float](ps []Param[T]) [][]T {
	out := make([][]T, len(ps))
	for i, p := range ps {
		out[i] = p.Data
	}
	return out
}

// Normal returns n values drawn from N(0, std²) with rng, each rounded to
// T: the random weights of the encoders' full-size benchmarks (std 0.02,
// BERT's initializer_range) and of InitNormal.
func Normal[T Float](n int, rng *rand.Rand, std float64) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(rng.NormFloat64() * std)
	}
	return out
}

// InitNormal fills every parameter, in walk order, with values drawn from
// N(0, std²) with rng.
func InitNormal[T Float](ps []Param[T], rng *rand.Rand, std float64) {
	for _, p := range ps {
		copy(p.Data, Normal[T](len(p.Data), rng, std))
	}
}

// Size returns the number of values a shape holds.
func Size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// check reports a parameter whose values do not fill its shape, or a
// name used twice.
func check[T Float](ps []Param[T]) error {
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		if seen[p.Name] {
			return fmt.Errorf("parameter %q listed twice", p.Name)
		}
		seen[p.Name] = true
		if Size(p.Shape) != len(p.Data) {
			return fmt.Errorf("parameter %q has %d values for shape %v", p.Name, len(p.Data), p.Shape)
		}
	}
	return nil
}

// WriteSafetensors writes the parameters to w as a safetensors file (the
// format's tensors are sorted by name), with metadata (may be nil).
func WriteSafetensors(w io.Writer, ps []Param[float32], metadata map[string]string) error {
	if err := check(ps); err != nil {
		return err
	}
	ts := make([]safetensors.Tensor, len(ps))
	for i, p := range ps {
		ts[i] = safetensors.Tensor{Name: p.Name, Shape: p.Shape, F32: p.Data}
	}
	return safetensors.Write(w, ts, metadata)
}

// ReadParams fills every parameter from the checkpoint tensor of its name,
// which must have the parameter's shape (converted to float32 as
// checkpoint.State.ReadFloat32 does).
func ReadParams(st *checkpoint.State, ps []Param[float32]) error {
	if err := check(ps); err != nil {
		return err
	}
	for _, p := range ps {
		info, ok := st.Info(p.Name)
		if !ok {
			return fmt.Errorf("checkpoint has no parameter %q", p.Name)
		}
		if !slices.Equal(info.Shape, p.Shape) {
			return fmt.Errorf("checkpoint parameter %q has shape %v, want %v", p.Name, info.Shape, p.Shape)
		}
		if err := st.ReadFloat32(p.Name, p.Data); err != nil {
			return fmt.Errorf("parameter %q: %w", p.Name, err)
		}
	}
	return nil
}
