package nn

import (
	"slices"
	"testing"
)

// TestTensorNamerEncoderLayerOrder checks both state_dict orders: BERT's
// (each LayerNorm after its block's output) and ViT's (LayerNorms last),
// and that every tensor aliases the layer's parameter with its shape.
func TestTensorNamerEncoderLayerOrder(t *testing.T) {
	l := NewEncoderLayer[float32](4, 8)
	names := EncoderLayerNames{Query: "q", Key: "k", Value: "v", AttnOut: "o", LN1: "n1", FFNIn: "f1", FFNOut: "f2", LN2: "n2"}
	for _, tc := range []struct {
		normsLast bool
		want      []string
	}{
		{false, []string{"q", "k", "v", "o", "n1", "f1", "f2", "n2"}},
		{true, []string{"q", "k", "v", "o", "f1", "f2", "n1", "n2"}},
	} {
		var got []string
		var shapes [][]int
		var data [][]float32
		add := TensorNamer[float32](func(name string, d []float32, shape ...int) {
			got = append(got, name)
			shapes = append(shapes, shape)
			data = append(data, d)
		})
		names.NormsLast = tc.normsLast
		add.EncoderLayer("p.", &l, names)
		var want []string
		for _, n := range tc.want {
			want = append(want, "p."+n+".weight", "p."+n+".bias")
		}
		if !slices.Equal(got, want) {
			t.Errorf("NormsLast %v: names %v, want %v", tc.normsLast, got, want)
		}
		for i, name := range got {
			n := 1
			for _, s := range shapes[i] {
				n *= s
			}
			if n != len(data[i]) {
				t.Errorf("%s: shape %v for %d values", name, shapes[i], len(data[i]))
			}
		}
		if i := slices.Index(got, "p.f1.weight"); &data[i][0] != &l.FC1.W[0] || !slices.Equal(shapes[i], []int{8, 4}) {
			t.Errorf("p.f1.weight does not alias FC1.W [8 4]: shape %v", shapes[i])
		}
	}
}
