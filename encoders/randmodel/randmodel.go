// Package randmodel writes model files with random weights in the shapes of
// the published models (CLIP ViT-B/32, ViT-B/16 in21k as RoViST-VG holds
// it, albert-large as RoViST-C holds it), for the full-size benchmarks of
// several packages: speed does not depend on the weights' values, and the
// real checkpoints cannot be shipped. (Synthetic images, crops and GloVe
// files for the same benchmarks are in internal/randmodel, which stays
// below encoders.)
//
// Values follow the usual initialisation of these models: biases 0, layer
// norm weights 1, CLIP's logit_scale ln(1/0.07), every other value normal
// with σ 0.02 from a seeded source, so files are reproducible.
package randmodel

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strings"
)

// Param is one tensor of a random checkpoint.
type Param struct {
	Name  string
	Shape []int
}

// Size is the number of values of p.
func (p Param) Size() int {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	return n
}

// Linear is a linear layer's weight (out × in) and bias.
func Linear(name string, out, in int) []Param {
	return []Param{{name + ".weight", []int{out, in}}, {name + ".bias", []int{out}}}
}

// Norm is a layer norm's weight and bias.
func Norm(name string, n int) []Param {
	return []Param{{name + ".weight", []int{n}}, {name + ".bias", []int{n}}}
}

// fill is the initial value rule for a parameter name: 0, 1, a constant,
// or (ok false) a normal draw.
func fill(name string) (v float32, constant bool) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(name, ".bias"):
		return 0, true
	case strings.Contains(lower, "norm") && strings.HasSuffix(name, ".weight"):
		return 1, true
	case name == "logit_scale":
		return float32(math.Log(1 / 0.07)), true
	}
	return 0, false
}

// WriteSafetensors writes params to path as a float32 safetensors file
// with random values (see the package doc), streaming the data so that
// a full-size model never sits in memory.
func WriteSafetensors(path string, params []Param, seed int64) (err error) {
	header := map[string]any{}
	off := 0
	for _, p := range params {
		if _, dup := header[p.Name]; dup {
			return fmt.Errorf("randmodel: tensor %q listed twice", p.Name)
		}
		n := 4 * p.Size()
		header[p.Name] = map[string]any{"dtype": "F32", "shape": p.Shape, "data_offsets": []int{off, off + n}}
		off += n
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		return err
	}
	for len(hdr)%8 != 0 {
		hdr = append(hdr, ' ')
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := binary.Write(w, binary.LittleEndian, uint64(len(hdr))); err != nil {
		return err
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(seed))
	var b [4]byte
	for _, p := range params {
		c, constant := fill(p.Name)
		for range p.Size() {
			v := c
			if !constant {
				v = float32(rng.NormFloat64() * 0.02)
			}
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			if _, err := w.Write(b[:]); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// writeJSON writes v as JSON to path.
func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
