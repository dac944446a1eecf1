package cudalib

import (
	"fmt"
	"unsafe"
)

// Handles of the driver API; zero is "none" (and the default stream).
type (
	DevicePtr uint64  // CUdeviceptr: an address in device memory
	Context   uintptr // CUcontext
	Stream    uintptr // CUstream; 0 is the legacy default stream
	Module    uintptr // CUmodule
	Function  uintptr // CUfunction: a kernel of a loaded module
	Event     uintptr // CUevent
)

// DeviceAttribute is a CUdevice_attribute (cuda.h).
type DeviceAttribute int32

// The attributes the backend and the device report read.
const (
	AttrMaxThreadsPerBlock      DeviceAttribute = 1
	AttrMaxSharedMemoryPerBlock DeviceAttribute = 8
	AttrWarpSize                DeviceAttribute = 10
	AttrMultiprocessorCount     DeviceAttribute = 16
	AttrComputeMode             DeviceAttribute = 20
	AttrComputeCapabilityMajor  DeviceAttribute = 75
	AttrComputeCapabilityMinor  DeviceAttribute = 76
)

// ComputeModeProhibited is the AttrComputeMode value of a device that
// accepts no contexts (set with nvidia-smi -c PROHIBITED).
const ComputeModeProhibited = 2

// streamNonBlocking is CU_STREAM_NON_BLOCKING: a stream that does not
// synchronise with the legacy default stream, so that workers sharing a
// GPU do not wait for each other.
const streamNonBlocking = 1

// driverFuncs are the bound driver API calls (see bindAll); each returns a
// CUresult.
type driverFuncs struct {
	cuInit                    func(flags uint32) int32
	cuDriverGetVersion        func(v *int32) int32
	cuGetErrorName            func(code int32, s **byte) int32
	cuGetErrorString          func(code int32, s **byte) int32
	cuDeviceGetCount          func(n *int32) int32
	cuDeviceGet               func(d *int32, ordinal int32) int32
	cuDeviceGetName           func(name *byte, n int32, d int32) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, d int32) int32
	cuDeviceTotalMem          func(bytes *uint64, d int32) int32 `sym:"cuDeviceTotalMem_v2"`
	cuDevicePrimaryCtxRetain  func(c *uintptr, d int32) int32
	cuDevicePrimaryCtxRelease func(d int32) int32 `sym:"cuDevicePrimaryCtxRelease_v2"`
	cuCtxSetCurrent           func(c uintptr) int32
	cuCtxSynchronize          func() int32
	cuMemGetInfo              func(free, total *uint64) int32             `sym:"cuMemGetInfo_v2"`
	cuMemAlloc                func(p *uint64, bytes uint64) int32         `sym:"cuMemAlloc_v2"`
	cuMemFree                 func(p uint64) int32                        `sym:"cuMemFree_v2"`
	cuMemAllocHost            func(p *unsafe.Pointer, bytes uint64) int32 `sym:"cuMemAllocHost_v2"`
	cuMemFreeHost             func(p unsafe.Pointer) int32
	cuMemcpyHtoDAsync         func(dst uint64, src unsafe.Pointer, bytes uint64, s uintptr) int32 `sym:"cuMemcpyHtoDAsync_v2"`
	cuMemcpyDtoHAsync         func(dst unsafe.Pointer, src uint64, bytes uint64, s uintptr) int32 `sym:"cuMemcpyDtoHAsync_v2"`
	cuMemcpyDtoDAsync         func(dst, src uint64, bytes uint64, s uintptr) int32                `sym:"cuMemcpyDtoDAsync_v2"`
	cuMemsetD32Async          func(dst uint64, v uint32, n uint64, s uintptr) int32
	cuStreamCreate            func(s *uintptr, flags uint32) int32
	cuStreamDestroy           func(s uintptr) int32 `sym:"cuStreamDestroy_v2"`
	cuStreamSynchronize       func(s uintptr) int32
	cuModuleLoadData          func(m *uintptr, image unsafe.Pointer) int32
	cuModuleUnload            func(m uintptr) int32
	cuModuleGetFunction       func(f *uintptr, m uintptr, name string) int32
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, s uintptr, params, extra unsafe.Pointer) int32
	cuEventCreate             func(e *uintptr, flags uint32) int32
	cuEventRecord             func(e, s uintptr) int32
	cuEventSynchronize        func(e uintptr) int32
	cuEventElapsedTime        func(ms *float32, start, end uintptr) int32
	cuEventDestroy            func(e uintptr) int32 `sym:"cuEventDestroy_v2"`
}

// DriverAPI is the opened CUDA driver (libcuda.so.1). It holds no state
// beyond the bound functions and may be shared by goroutines.
type DriverAPI struct {
	// Path is the file that was loaded.
	Path string
	f    driverFuncs
}

// OpenDriver loads libcuda.so.1 from o's search path, binds its calls and
// initialises it (cuInit). It fails with one line naming what is missing:
// the library, a function of it, or a driver that finds no usable GPU
// (CUDA_ERROR_NO_DEVICE).
func OpenDriver(o Options) (*DriverAPI, error) {
	h, f, err := load[driverFuncs](o, Driver)
	if err != nil {
		return nil, err
	}
	d := &DriverAPI{Path: h.path, f: *f}
	if err := d.check(f.cuInit(0), "cuInit"); err != nil {
		return nil, err
	}
	return d, nil
}

// check turns a CUresult into nil or an *Error named by the driver.
func (d *DriverAPI) check(code int32, fn string) error {
	if code == 0 {
		return nil
	}
	e := &Error{Library: Driver, Func: fn, Code: int(code), Name: codeName(Driver, int(code))}
	var s *byte
	if d.f.cuGetErrorName(code, &s) == 0 && s != nil {
		e.Name = goString(s)
	}
	if d.f.cuGetErrorString(code, &s) == 0 && s != nil {
		e.Detail = goString(s)
	}
	return e
}

// goString copies a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// Version returns the CUDA version the driver supports, as 1000·major +
// 10·minor (13000 for CUDA 13.0).
func (d *DriverAPI) Version() (int, error) {
	var v int32
	err := d.check(d.f.cuDriverGetVersion(&v), "cuDriverGetVersion")
	return int(v), err
}

// DeviceCount returns the number of GPUs the driver sees.
func (d *DriverAPI) DeviceCount() (int, error) {
	var n int32
	err := d.check(d.f.cuDeviceGetCount(&n), "cuDeviceGetCount")
	return int(n), err
}

// device returns the CUdevice of ordinal i.
func (d *DriverAPI) device(i int) (int32, error) {
	var dev int32
	err := d.check(d.f.cuDeviceGet(&dev, int32(i)), "cuDeviceGet")
	return dev, err
}

// DeviceName returns GPU i's name, e.g. "NVIDIA H100 80GB HBM3".
func (d *DriverAPI) DeviceName(i int) (string, error) {
	dev, err := d.device(i)
	if err != nil {
		return "", err
	}
	buf := make([]byte, 256)
	if err := d.check(d.f.cuDeviceGetName(&buf[0], int32(len(buf)), dev), "cuDeviceGetName"); err != nil {
		return "", err
	}
	return goString(&buf[0]), nil
}

// DeviceAttribute returns an attribute of GPU i.
func (d *DriverAPI) DeviceAttribute(i int, a DeviceAttribute) (int, error) {
	dev, err := d.device(i)
	if err != nil {
		return 0, err
	}
	var v int32
	err = d.check(d.f.cuDeviceGetAttribute(&v, int32(a), dev), "cuDeviceGetAttribute")
	return int(v), err
}

// TotalMem returns GPU i's memory in bytes.
func (d *DriverAPI) TotalMem(i int) (uint64, error) {
	dev, err := d.device(i)
	if err != nil {
		return 0, err
	}
	var n uint64
	err = d.check(d.f.cuDeviceTotalMem(&n, dev), "cuDeviceTotalMem_v2")
	return n, err
}

// RetainPrimaryContext returns GPU i's primary context (the one the CUDA
// runtime and PyTorch share), which ReleasePrimaryContext gives back.
func (d *DriverAPI) RetainPrimaryContext(i int) (Context, error) {
	dev, err := d.device(i)
	if err != nil {
		return 0, err
	}
	var c uintptr
	err = d.check(d.f.cuDevicePrimaryCtxRetain(&c, dev), "cuDevicePrimaryCtxRetain")
	return Context(c), err
}

// ReleasePrimaryContext releases a RetainPrimaryContext of GPU i.
func (d *DriverAPI) ReleasePrimaryContext(i int) error {
	dev, err := d.device(i)
	if err != nil {
		return err
	}
	return d.check(d.f.cuDevicePrimaryCtxRelease(dev), "cuDevicePrimaryCtxRelease_v2")
}

// SetCurrent makes c the calling OS thread's context.
func (d *DriverAPI) SetCurrent(c Context) error {
	return d.check(d.f.cuCtxSetCurrent(uintptr(c)), "cuCtxSetCurrent")
}

// Synchronize waits for all work of the current context.
func (d *DriverAPI) Synchronize() error { return d.check(d.f.cuCtxSynchronize(), "cuCtxSynchronize") }

// MemInfo returns the current context's device's free and total memory.
func (d *DriverAPI) MemInfo() (free, total uint64, err error) {
	err = d.check(d.f.cuMemGetInfo(&free, &total), "cuMemGetInfo_v2")
	return free, total, err
}

// Alloc allocates device memory (cuMemAlloc: plain, not managed, memory).
func (d *DriverAPI) Alloc(bytes uint64) (DevicePtr, error) {
	var p uint64
	err := d.check(d.f.cuMemAlloc(&p, bytes), "cuMemAlloc_v2")
	return DevicePtr(p), err
}

// Free releases an Alloc.
func (d *DriverAPI) Free(p DevicePtr) error { return d.check(d.f.cuMemFree(uint64(p)), "cuMemFree_v2") }

// AllocHost allocates page-locked host memory, which copies to and from the
// device read and write without staging and asynchronously.
func (d *DriverAPI) AllocHost(bytes uint64) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := d.check(d.f.cuMemAllocHost(&p, bytes), "cuMemAllocHost_v2")
	return p, err
}

// FreeHost releases an AllocHost.
func (d *DriverAPI) FreeHost(p unsafe.Pointer) error {
	return d.check(d.f.cuMemFreeHost(p), "cuMemFreeHost")
}

// CopyHtoD copies bytes from host memory to the device on stream s. From
// pageable (Go) memory the call returns once the source was read; from
// AllocHost memory it returns at once and the source must stay untouched
// until the stream passes the copy.
func (d *DriverAPI) CopyHtoD(dst DevicePtr, src unsafe.Pointer, bytes uint64, s Stream) error {
	return d.check(d.f.cuMemcpyHtoDAsync(uint64(dst), src, bytes, uintptr(s)), "cuMemcpyHtoDAsync_v2")
}

// CopyDtoH copies bytes from the device to host memory on stream s; into
// pageable (Go) memory it returns when the copy is done, into AllocHost
// memory once it is queued.
func (d *DriverAPI) CopyDtoH(dst unsafe.Pointer, src DevicePtr, bytes uint64, s Stream) error {
	return d.check(d.f.cuMemcpyDtoHAsync(dst, uint64(src), bytes, uintptr(s)), "cuMemcpyDtoHAsync_v2")
}

// CopyDtoD copies bytes within device memory on stream s.
func (d *DriverAPI) CopyDtoD(dst, src DevicePtr, bytes uint64, s Stream) error {
	return d.check(d.f.cuMemcpyDtoDAsync(uint64(dst), uint64(src), bytes, uintptr(s)), "cuMemcpyDtoDAsync_v2")
}

// MemsetD32 sets n 32-bit words at dst to v on stream s (v 0 zeroes
// float32 buffers).
func (d *DriverAPI) MemsetD32(dst DevicePtr, v uint32, n uint64, s Stream) error {
	return d.check(d.f.cuMemsetD32Async(uint64(dst), v, n, uintptr(s)), "cuMemsetD32Async")
}

// NewStream creates a stream that does not synchronise with the default
// stream (one per worker, so that models sharing a GPU overlap).
func (d *DriverAPI) NewStream() (Stream, error) {
	var s uintptr
	err := d.check(d.f.cuStreamCreate(&s, streamNonBlocking), "cuStreamCreate")
	return Stream(s), err
}

// DestroyStream destroys a NewStream once its work is done.
func (d *DriverAPI) DestroyStream(s Stream) error {
	return d.check(d.f.cuStreamDestroy(uintptr(s)), "cuStreamDestroy_v2")
}

// StreamSynchronize waits for the work queued on s.
func (d *DriverAPI) StreamSynchronize(s Stream) error {
	return d.check(d.f.cuStreamSynchronize(uintptr(s)), "cuStreamSynchronize")
}

// LoadModule loads PTX (or a cubin) into the current context; the driver
// compiles PTX for the device.
func (d *DriverAPI) LoadModule(image []byte) (Module, error) {
	if len(image) == 0 {
		return 0, fmt.Errorf("cuda: cuModuleLoadData: empty module image")
	}
	buf := make([]byte, len(image)+1) // PTX is read as a NUL-terminated string
	copy(buf, image)
	var m uintptr
	err := d.check(d.f.cuModuleLoadData(&m, unsafe.Pointer(&buf[0])), "cuModuleLoadData")
	return Module(m), err
}

// UnloadModule unloads a LoadModule.
func (d *DriverAPI) UnloadModule(m Module) error {
	return d.check(d.f.cuModuleUnload(uintptr(m)), "cuModuleUnload")
}

// Function returns the kernel name (an extern "C" __global__ function) of m.
func (d *DriverAPI) Function(m Module, name string) (Function, error) {
	var f uintptr
	if err := d.check(d.f.cuModuleGetFunction(&f, uintptr(m), name), "cuModuleGetFunction"); err != nil {
		return 0, fmt.Errorf("kernel %q: %w", name, err)
	}
	return Function(f), nil
}

// NewEvent creates an event that records time (for timing streams).
func (d *DriverAPI) NewEvent() (Event, error) {
	var e uintptr
	err := d.check(d.f.cuEventCreate(&e, 0), "cuEventCreate")
	return Event(e), err
}

// Record records e on stream s.
func (d *DriverAPI) Record(e Event, s Stream) error {
	return d.check(d.f.cuEventRecord(uintptr(e), uintptr(s)), "cuEventRecord")
}

// EventSynchronize waits until e has been reached.
func (d *DriverAPI) EventSynchronize(e Event) error {
	return d.check(d.f.cuEventSynchronize(uintptr(e)), "cuEventSynchronize")
}

// Elapsed returns the milliseconds between two recorded events.
func (d *DriverAPI) Elapsed(start, end Event) (float32, error) {
	var ms float32
	err := d.check(d.f.cuEventElapsedTime(&ms, uintptr(start), uintptr(end)), "cuEventElapsedTime")
	return ms, err
}

// DestroyEvent destroys a NewEvent.
func (d *DriverAPI) DestroyEvent(e Event) error {
	return d.check(d.f.cuEventDestroy(uintptr(e)), "cuEventDestroy_v2")
}
