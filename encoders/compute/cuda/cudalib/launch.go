package cudalib

import (
	"math"
	"runtime"
	"unsafe"
)

// Dim3 is a grid or block size.
type Dim3 struct{ X, Y, Z uint32 }

// Args holds a kernel's arguments in order, each in a slot of its own, as
// cuLaunchKernel reads them: an array of pointers to the values. The zero
// value is an empty list; an Args may be reused after Reset.
type Args struct {
	vals  []uint64
	kinds []byte
}

// Reset empties the list.
func (a *Args) Reset() { a.vals, a.kinds = a.vals[:0], a.kinds[:0] }

// Len returns the number of arguments.
func (a *Args) Len() int { return len(a.vals) }

// Kinds returns the C types of the arguments so far, one letter each:
// p pointer, i int, l long long, u unsigned long long, f float, d double
// (the letters of the kernel table, kernels.Param), so that a launcher can
// check them against the kernel's parameters.
func (a *Args) Kinds() string { return string(a.kinds) }

func (a *Args) add(kind byte, v uint64) *Args {
	a.vals = append(a.vals, v)
	a.kinds = append(a.kinds, kind)
	return a
}

// Ptr appends a device pointer (a T* parameter).
func (a *Args) Ptr(p DevicePtr) *Args { return a.add('p', uint64(p)) }

// Int appends an int parameter (32 bits, the low half of the slot on a
// little-endian machine).
func (a *Args) Int(v int32) *Args { return a.add('i', uint64(uint32(v))) }

// Int64 appends a long long parameter.
func (a *Args) Int64(v int64) *Args { return a.add('l', uint64(v)) }

// Uint64 appends an unsigned long long parameter.
func (a *Args) Uint64(v uint64) *Args { return a.add('u', v) }

// Float32 appends a float parameter.
func (a *Args) Float32(v float32) *Args { return a.add('f', uint64(math.Float32bits(v))) }

// Float64 appends a double parameter.
func (a *Args) Float64(v float64) *Args { return a.add('d', math.Float64bits(v)) }

// Launch queues kernel f on stream s with args. The argument values and
// the pointer array are pinned for the call, so that the driver may read
// them as C memory (runtime.Pinner); the driver copies them before
// cuLaunchKernel returns.
func (d *DriverAPI) Launch(f Function, grid, block Dim3, sharedBytes uint32, s Stream, args *Args) error {
	var pin runtime.Pinner
	defer pin.Unpin()
	var params unsafe.Pointer
	if n := len(args.vals); n > 0 {
		ptrs := make([]unsafe.Pointer, n)
		pin.Pin(&args.vals[0])
		for i := range args.vals {
			ptrs[i] = unsafe.Pointer(&args.vals[i])
		}
		pin.Pin(&ptrs[0])
		params = unsafe.Pointer(&ptrs[0])
	}
	return d.check(d.f.cuLaunchKernel(uintptr(f), grid.X, grid.Y, grid.Z, block.X, block.Y, block.Z,
		sharedBytes, uintptr(s), params, nil), "cuLaunchKernel")
}
