package npy

import (
	"bytes"
	"testing"
)

func TestReadGoldenInt64(t *testing.T) {
	// pair_input_ids.npy from the BERT golden set (shared fixtures,
	// encoders/bert/golden): shape [3, 21], int64, rows start with [CLS]=101.
	a, err := ReadFile("testdata/pair_input_ids.npy")
	if err != nil {
		t.Fatal(err)
	}
	if a.DType != "<i8" || len(a.Shape) != 2 || a.Shape[0] != 3 || a.Len() != len(a.I64) {
		t.Fatalf("got dtype %s shape %v with %d values", a.DType, a.Shape, len(a.I64))
	}
	for r := 0; r < a.Shape[0]; r++ {
		if a.I64[r*a.Shape[1]] != 101 {
			t.Errorf("row %d starts with %d, want [CLS]=101", r, a.I64[r*a.Shape[1]])
		}
	}
}

func TestReadRejectsHugeShape(t *testing.T) {
	h := "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100000), }"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	b.WriteByte(byte(len(h)))
	b.WriteByte(0)
	b.WriteString(h)
	if _, err := Read(&b); err == nil {
		t.Fatal("a header claiming 1e15 elements was accepted")
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data))
		if err == nil && a.Len() != len(a.F32)+len(a.F64)+len(a.I64) {
			t.Fatalf("shape %v but %d values", a.Shape, len(a.F32)+len(a.F64)+len(a.I64))
		}
	})
}
