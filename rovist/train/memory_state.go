package train

import (
	"slices"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// copiedState returns an in-memory checkpoint holding copies of n named
// tensors, from which the scorer's model is built without a file; the
// copies keep that model independent of further training.
func copiedState(n int, at func(i int) checkpoint.Float32Tensor) (*checkpoint.State, error) {
	ts := make([]checkpoint.Float32Tensor, n)
	for i := range ts {
		t := at(i)
		ts[i] = checkpoint.Float32Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: slices.Clone(t.Data)}
	}
	st, err := checkpoint.FromFloat32(ts)
	if err != nil {
		return nil, err
	}
	return st, nil
}
