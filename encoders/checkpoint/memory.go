package checkpoint

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// FormatMemory names a State built by FromFloat32.
const FormatMemory Format = "memory"

// Float32Tensor is a named float32 tensor held in memory, row-major.
type Float32Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// FromFloat32 returns a State over tensors held in memory — weights a
// program computed, such as a trainer's — so that a model can be built from
// them (encoders.NewBERT and the like) without writing a file. The State
// shares the slices: Float32 returns tensors backed by them rather than
// copies, so a model built from the State holds each weight once. Neither
// the slices nor the returned tensors may be changed while the other is in
// use. Names must be unique and each Data must hold exactly the elements of
// its Shape.
func FromFloat32(tensors []Float32Tensor) (*State, error) {
	s := newState(FormatMemory)
	s.opts = Options{}.withDefaults()
	s.owner = true
	bigEndian := binary.NativeEndian.Uint16([]byte{0, 1}) == 1
	for _, t := range tensors {
		if _, dup := s.tensors[t.Name]; dup {
			return nil, fmt.Errorf("tensor %q given twice", t.Name)
		}
		if n := numElements(t.Shape); n != int64(len(t.Data)) || n == 0 {
			return nil, fmt.Errorf("tensor %q has shape %v but %d values", t.Name, t.Shape, len(t.Data))
		}
		// The byte view is a pointer conversion (no uintptr), so it keeps
		// t.Data alive like t.Data itself; it is only read (checkSize,
		// Float32's shared path returns f32 itself).
		s.tensors[t.Name] = &entry{
			dtype: F32, shape: append([]int(nil), t.Shape...),
			data:      unsafe.Slice((*byte)(unsafe.Pointer(&t.Data[0])), 4*len(t.Data)),
			bigEndian: bigEndian,
			f32:       t.Data,
		}
	}
	return s, nil
}
