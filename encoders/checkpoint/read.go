package checkpoint

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/x448/float16"
)

// read walks the elements of e in row-major order and hands each run of
// elements that is contiguous in storage to emit (source bytes, index of
// the run's first element in the output, element count). It holds the read
// lock so Close cannot unmap the file underneath.
func (s *State) read(e *entry, emit func(src []byte, dstStart, count int)) error {
	s.files.mu.RLock()
	defer s.files.mu.RUnlock()
	if s.files.closed {
		return ErrClosed
	}
	size := int64(e.dtype.Size())
	n := numElements(e.shape)
	if e.strides == nil || isContiguous(e.shape, e.strides) {
		start := e.offset * size
		end := start + n*size
		if start < 0 || end > int64(len(e.data)) {
			return fmt.Errorf("data range [%d, %d) outside the %d stored bytes", start, end, len(e.data))
		}
		emit(e.data[start:end], 0, int(n))
		if e.mapped {
			releasePages(e.data[start:end])
		}
		return nil
	}
	// Strided: runs along the last dimension when it is unit-stride,
	// single elements otherwise. Bounds were checked at open time; they are
	// checked again per run because the check is cheap and faults are not.
	rank := len(e.shape)
	run := 1
	if e.strides[rank-1] == 1 {
		run = e.shape[rank-1]
	}
	idx := make([]int, rank)
	for out := 0; out < int(n); out += run {
		off := e.offset
		for d := 0; d < rank; d++ {
			off += int64(idx[d]) * int64(e.strides[d])
		}
		start, end := off*size, (off+int64(run))*size
		if start < 0 || end > int64(len(e.data)) {
			return fmt.Errorf("strided element at storage offset %d outside the %d stored bytes", off, len(e.data))
		}
		emit(e.data[start:end], out, run)
		// Advance the odometer by run elements.
		d := rank - 1
		if run > 1 {
			idx[d] = e.shape[d] - 1
		}
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < e.shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

// isContiguous reports whether strides are the row-major strides of shape
// (dimensions of size 1 may have any stride, as in torch).
func isContiguous(shape, strides []int) bool {
	want := 1
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] != 1 && strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// hostLittleEndian reports the byte order of this machine; the fast paths
// copy stored little-endian bytes directly when it matches.
func hostLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// decodeFloat32 converts count = len(dst) elements of type dt from src.
func decodeFloat32(dst []float32, src []byte, dt DType, bigEndian bool) {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	switch dt {
	case F32:
		if !bigEndian && hostLittleEndian() && len(dst) > 0 {
			// dst's bytes through a pointer conversion: no uintptr, and
			// float32 holds no pointers, so any bytes are a valid value.
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*len(dst)), src)
			return
		}
		for i := range dst {
			dst[i] = math.Float32frombits(order.Uint32(src[4*i:]))
		}
	case F16:
		for i := range dst {
			dst[i] = float16.Frombits(order.Uint16(src[2*i:])).Float32()
		}
	case BF16:
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(order.Uint16(src[2*i:])) << 16)
		}
	case F64:
		for i := range dst {
			dst[i] = float32(math.Float64frombits(order.Uint64(src[8*i:])))
		}
	}
}

// decodeInt64 converts count = len(dst) integer elements of type dt.
func decodeInt64(dst []int64, src []byte, dt DType, bigEndian bool) {
	var order binary.ByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	switch dt {
	case I64:
		for i := range dst {
			dst[i] = int64(order.Uint64(src[8*i:]))
		}
	case I32:
		for i := range dst {
			dst[i] = int64(int32(order.Uint32(src[4*i:])))
		}
	case I16:
		for i := range dst {
			dst[i] = int64(int16(order.Uint16(src[2*i:])))
		}
	case I8:
		for i := range dst {
			dst[i] = int64(int8(src[i]))
		}
	case U8:
		for i := range dst {
			dst[i] = int64(src[i])
		}
	case Bool:
		for i := range dst {
			if src[i] != 0 {
				dst[i] = 1
			} else {
				dst[i] = 0
			}
		}
	}
}
