package npy

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestWriteFloat32RoundTrip writes arrays and reads them back; the data
// starts at a multiple of 64 bytes and a 1-D shape is written as numpy
// writes it, "(3,)".
func TestWriteFloat32RoundTrip(t *testing.T) {
	for _, c := range []struct {
		shape []int
		data  []float32
		tuple string
	}{
		{[]int{3}, []float32{1, -2.5, float32(math.Inf(1))}, "(3,)"},
		{[]int{2, 1, 2}, []float32{0.5, 1e-8, -0, 7}, "(2, 1, 2)"},
		{[]int{0, 3}, []float32{}, "(0, 3)"},
	} {
		var buf bytes.Buffer
		if err := WriteFloat32(&buf, c.shape, c.data); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		hlen := int(b[8]) | int(b[9])<<8
		if (10+hlen)%64 != 0 || !strings.Contains(string(b[10:10+hlen]), "'shape': "+c.tuple) || b[10+hlen-1] != '\n' {
			t.Errorf("%v: header %q (data at %d)", c.shape, b[10:10+hlen], 10+hlen)
		}
		a, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: %v", c.shape, err)
		}
		if a.DType != "<f4" || !reflect.DeepEqual(a.Shape, c.shape) || len(a.F32) != len(c.data) {
			t.Fatalf("%v: read back %s %v with %d elements", c.shape, a.DType, a.Shape, len(a.F32))
		}
		for i := range c.data {
			if math.Float32bits(a.F32[i]) != math.Float32bits(c.data[i]) {
				t.Errorf("%v: element %d = %v, want %v", c.shape, i, a.F32[i], c.data[i])
			}
		}
	}
	if err := WriteFloat32(&bytes.Buffer{}, []int{2, 2}, []float32{1}); err == nil {
		t.Error("shape [2 2] with 1 element: no error")
	}
}
