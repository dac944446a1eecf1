package trainckpt

import (
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/safetensors"
)

// Moment is Adam's state for one parameter tensor: its first (M) and
// second (V) moments, each of Shape.
type Moment struct {
	Name  string
	Shape []int
	M, V  []float32
}

// Moments makes n moments from at, which gives the i-th tensor's name and
// shape and its first and second moments.
func Moments(n int, at func(i int) Moment) []Moment {
	out := make([]Moment, n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

// WriteMoments writes the moments to dir/OptimizerFile as "m.NAME" and
// "v.NAME" tensors.
func WriteMoments(dir string, moments []Moment) error {
	var ts []safetensors.Tensor
	for _, mo := range moments {
		ts = append(ts, safetensors.Tensor{Name: "m." + mo.Name, Shape: mo.Shape, F32: mo.M},
			safetensors.Tensor{Name: "v." + mo.Name, Shape: mo.Shape, F32: mo.V})
	}
	return safetensors.WriteFile(filepath.Join(dir, OptimizerFile), ts, map[string]string{"optimizer": "torch.optim.Adam"})
}

// TensorFile is an opened safetensors file as ReadMoments reads it;
// encoders/checkpoint's *State is one. Taking it as an interface keeps this
// package below encoders, with no reader of its own.
type TensorFile interface {
	Has(name string) bool
	ReadFloat32(name string, dst []float32) error
	Close() error
}

// ReadMoments fills each moment's M and V from dir/OptimizerFile, opened
// with open; every tensor must be there with the moment's element count.
func ReadMoments(dir string, moments []Moment, open func(path string) (TensorFile, error)) error {
	path := filepath.Join(dir, OptimizerFile)
	ck, err := open(path)
	if err != nil {
		return err
	}
	defer ck.Close()
	for _, mo := range moments {
		for _, part := range []struct {
			name string
			data []float32
		}{{"m." + mo.Name, mo.M}, {"v." + mo.Name, mo.V}} {
			if !ck.Has(part.name) {
				return fmt.Errorf("%s: no tensor %q of shape %v", path, part.name, mo.Shape)
			}
			if err := ck.ReadFloat32(part.name, part.data); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	return nil
}
