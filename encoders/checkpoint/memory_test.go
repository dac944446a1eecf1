package checkpoint

import (
	"slices"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

// TestFromFloat32 checks that an in-memory State lists its tensors, shares
// their slices with Float32 (no copy: a model built from it holds each
// weight once), copies into ReadFloat32's buffer and refuses inconsistent
// input.
func TestFromFloat32(t *testing.T) {
	w := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{-1.5}
	st, err := FromFloat32([]Float32Tensor{{Name: "l.weight", Shape: []int{2, 3}, Data: w}, {Name: "l.bias", Shape: []int{1}, Data: b}})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Names(); !slices.Equal(got, []string{"l.bias", "l.weight"}) || st.Format() != FormatMemory {
		t.Errorf("names %v, format %v", got, st.Format())
	}
	if info, ok := st.Info("l.weight"); !ok || info.DType != F32 || !slices.Equal(info.Shape, []int{2, 3}) {
		t.Errorf("info %+v, %v", info, ok)
	}
	d, err := st.Float32("l.weight")
	if err != nil {
		t.Fatal(err)
	}
	data := dense.Data(d).([]float32)
	if !slices.Equal(data, w) || &data[0] != &w[0] || !slices.Equal([]int(d.Shape()), []int{2, 3}) {
		t.Errorf("Float32 gave %v %v, want the shared slice %v", data, d.Shape(), w)
	}
	buf := make([]float32, 1)
	if err := st.ReadFloat32("l.bias", buf); err != nil || buf[0] != -1.5 {
		t.Errorf("ReadFloat32: %v, %v", buf, err)
	}
	if _, err := st.Int64("l.bias"); err == nil {
		t.Error("Int64 of a float32 tensor: no error")
	}
	for _, bad := range [][]Float32Tensor{
		{{Name: "a", Shape: []int{2}, Data: []float32{1}}},
		{{Name: "a", Shape: []int{0}, Data: nil}},
		{{Name: "a", Shape: []int{1}, Data: []float32{1}}, {Name: "a", Shape: []int{1}, Data: []float32{2}}},
	} {
		if _, err := FromFloat32(bad); err == nil {
			t.Errorf("FromFloat32(%+v): no error", bad)
		}
	}
}
