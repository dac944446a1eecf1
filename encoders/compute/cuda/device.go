package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/cuda/kernels"
)

// Options chooses the GPU and the precision. The zero value is GPU 0 in
// float32 with TF32 off, libraries from the default search path.
type Options struct {
	// Libraries says where to look for the CUDA libraries.
	Libraries cudalib.Options
	// Index is the GPU's ordinal (cuda:N).
	Index int
	// TF32 lets cuBLAS use TF32 tensor cores for float32 products: faster,
	// with inputs rounded to 10 mantissa bits, so results deviate from the
	// CPU path by about 1e-3 relative. Off by default.
	TF32 bool
	// BF16 runs the backend's plain (unbatched) products on bfloat16
	// tensor cores with float32 accumulation (GemmBF16): faster still,
	// operands rounded to 8 mantissa bits. Off by default.
	BF16 bool
}

// Device is one GPU brought up for the backend: its primary context, the
// compiled kernels, and a default Queue. Close releases it. A Device is
// safe for concurrent use; each worker that wants to overlap with others
// takes a Queue of its own (NewQueue).
type Device struct {
	drv     *cudalib.DriverAPI
	blas    *cudalib.BLAS
	index   int
	name    string
	tf32    bool
	bf16    bool
	sms     int
	ctx     cudalib.Context
	module  cudalib.Module
	kernels map[string]kernel
	// Queue is the device's default queue.
	*Queue

	mu     sync.Mutex
	queues []*Queue
	closed bool
}

// kernel is a loaded kernel with its table entry.
type kernel struct {
	fn cudalib.Function
	k  kernels.Kernel
}

// Queue is a stream with its cuBLAS handle: the operations queued on one
// Queue run in order; those of different queues may overlap. A Queue is
// meant for one goroutine at a time (a worker); its methods lock it all the
// same, so that misuse serialises instead of corrupting.
type Queue struct {
	d      *Device
	mu     sync.Mutex
	stream cudalib.Stream
	handle cudalib.BLASHandle
	// scratch are the queue's grow-only work buffers (attention's heads
	// and scores, uploaded ids and masks), reused call after call: the
	// stream orders a call's use after the previous call's.
	scratch [numScratch]Buffer
}

// Open brings up GPU o.Index: it loads the libraries, retains the primary
// context, compiles the kernels with NVRTC for the GPU's architecture and
// loads them, and makes the default queue. It fails with one line naming
// what is missing (see Report.Usable).
func Open(o Options) (*Device, error) {
	r := Discover(o.Libraries)
	if err := r.Usable(o.Index); err != nil {
		return nil, err
	}
	drv, err := cudalib.OpenDriver(r.opts)
	if err != nil {
		return nil, err
	}
	blas, err := cudalib.OpenBLAS(r.opts)
	if err != nil {
		return nil, err
	}
	nvrtc, err := cudalib.OpenNVRTC(r.opts)
	if err != nil {
		return nil, err
	}
	g := r.GPUs[o.Index]
	arch, err := cudalib.ChooseArch(r.archs, g.ComputeCapability)
	if err != nil {
		return nil, err
	}
	src, name := kernels.Source()
	ptx, _, err := nvrtc.Compile(src, name, kernels.Options(arch))
	if err != nil {
		return nil, err
	}
	d := &Device{drv: drv, blas: blas, index: o.Index, name: g.Name, tf32: o.TF32, bf16: o.BF16, sms: g.Multiprocessors, kernels: map[string]kernel{}}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if d.ctx, err = drv.RetainPrimaryContext(o.Index); err != nil {
		return nil, d.wrap(err)
	}
	fail := func(err error) (*Device, error) {
		_ = d.Close()
		return nil, d.wrap(err)
	}
	if err := drv.SetCurrent(d.ctx); err != nil {
		return fail(err)
	}
	if d.module, err = drv.LoadModule(ptx); err != nil {
		return fail(err)
	}
	for _, k := range kernels.Kernels {
		fn, err := drv.Function(d.module, k.Name)
		if err != nil {
			return fail(err)
		}
		d.kernels[k.Name] = kernel{fn: fn, k: k}
	}
	q, err := d.newQueueLocked()
	if err != nil {
		return fail(err)
	}
	d.Queue = q
	return d, nil
}

// wrap names the device in an error of its libraries.
func (d *Device) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("GPU %d (%s): %w", d.index, d.name, err)
}

// Name returns the GPU's name, e.g. "NVIDIA H100 80GB HBM3".
func (d *Device) Name() string { return d.name }

// Index returns the GPU's ordinal.
func (d *Device) Index() int { return d.index }

// current makes the device's context current on the calling goroutine's
// OS thread, which stays locked until the returned function runs.
func (d *Device) current() (func(), error) {
	runtime.LockOSThread()
	if err := d.drv.SetCurrent(d.ctx); err != nil {
		runtime.UnlockOSThread()
		return nil, d.wrap(err)
	}
	return runtime.UnlockOSThread, nil
}

// NewQueue makes another stream with its own cuBLAS handle, for a worker
// that runs beside others on this GPU.
func (d *Device) NewQueue() (*Queue, error) {
	done, err := d.current()
	if err != nil {
		return nil, err
	}
	defer done()
	q, err := d.newQueueLocked()
	return q, d.wrap(err)
}

// newQueueLocked makes a queue; the context is current.
func (d *Device) newQueueLocked() (*Queue, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errors.New("cuda: the device is closed")
	}
	s, err := d.drv.NewStream()
	if err != nil {
		return nil, err
	}
	h, err := d.blas.Create()
	if err == nil {
		err = d.blas.SetStream(h, s)
		if err == nil && d.tf32 {
			err = d.blas.SetMathMode(h, cudalib.MathTF32)
		}
		if err != nil {
			_ = d.blas.Destroy(h)
		}
	}
	if err != nil {
		_ = d.drv.DestroyStream(s)
		return nil, err
	}
	q := &Queue{d: d, stream: s, handle: h}
	d.queues = append(d.queues, q)
	return q, nil
}

// Close waits for the device's work, releases its queues, kernels and
// context. Buffers not freed are released with the context when no other
// user (e.g. PyTorch in the same process) holds it.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var errs []error
	if d.drv.SetCurrent(d.ctx) == nil {
		errs = append(errs, d.drv.Synchronize())
		for _, q := range d.queues {
			errs = append(errs, d.blas.Destroy(q.handle), d.drv.DestroyStream(q.stream))
			for _, b := range q.scratch {
				if b.Ptr != 0 {
					errs = append(errs, d.drv.Free(b.Ptr))
				}
			}
		}
		if d.module != 0 {
			errs = append(errs, d.drv.UnloadModule(d.module))
		}
	}
	errs = append(errs, d.drv.ReleasePrimaryContext(d.index))
	return d.wrap(errors.Join(errs...))
}

// MemInfo returns the GPU's free and total memory in bytes.
func (d *Device) MemInfo() (free, total uint64, err error) {
	done, err := d.current()
	if err != nil {
		return 0, 0, err
	}
	defer done()
	free, total, err = d.drv.MemInfo()
	return free, total, d.wrap(err)
}

// Buffer is n float32 values in device memory.
type Buffer struct {
	Ptr cudalib.DevicePtr
	N   int
}

// Bytes returns the buffer's size in bytes.
func (b Buffer) Bytes() uint64 { return uint64(b.N) * 4 }

// At returns the buffer from value i on (a view, not to be freed).
func (b Buffer) At(i int) Buffer { return Buffer{Ptr: b.Ptr + cudalib.DevicePtr(4*i), N: b.N - i} }

// Alloc allocates n float32 values (not zeroed: Zero them). Out of memory
// is an error whose *cudalib.Error reports OutOfMemory, naming the size.
func (q *Queue) Alloc(n int) (Buffer, error) {
	done, err := q.d.current()
	if err != nil {
		return Buffer{}, err
	}
	defer done()
	p, err := q.d.drv.Alloc(uint64(n) * 4)
	if err != nil {
		return Buffer{}, q.d.wrap(fmt.Errorf("allocating %d float32 values (%.1f MiB): %w", n, float64(n)*4/(1<<20), err))
	}
	return Buffer{Ptr: p, N: n}, nil
}

// Free releases an Alloc or Upload.
func (q *Queue) Free(b Buffer) error {
	if b.Ptr == 0 {
		return nil
	}
	done, err := q.d.current()
	if err != nil {
		return err
	}
	defer done()
	return q.d.wrap(q.d.drv.Free(b.Ptr))
}

// Zero sets b to 0 on the queue.
func (q *Queue) Zero(b Buffer) error {
	return q.locked(func() error { return q.d.drv.MemsetD32(b.Ptr, 0, uint64(b.N), q.stream) })
}

// locked runs fn with the queue locked and the context current.
func (q *Queue) locked(fn func() error) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	done, err := q.d.current()
	if err != nil {
		return err
	}
	defer done()
	return q.d.wrap(fn())
}

// Upload copies host values into a new buffer.
func (q *Queue) Upload(data []float32) (Buffer, error) {
	b, err := q.Alloc(len(data))
	if err != nil || len(data) == 0 {
		return b, err
	}
	err = q.locked(func() error {
		return q.d.drv.CopyHtoD(b.Ptr, unsafe.Pointer(&data[0]), b.Bytes(), q.stream)
	})
	if err != nil {
		_ = q.Free(b)
		return Buffer{}, err
	}
	return b, nil
}

// CopyIn copies host values into the start of b on the queue.
func (q *Queue) CopyIn(b Buffer, data []float32) error {
	if len(data) > b.N {
		return fmt.Errorf("cuda: copying %d values into a buffer of %d", len(data), b.N)
	}
	if len(data) == 0 {
		return nil
	}
	return q.locked(func() error {
		return q.d.drv.CopyHtoD(b.Ptr, unsafe.Pointer(&data[0]), uint64(len(data))*4, q.stream)
	})
}

// Download copies the first len(dst) values of b to the host once the
// work queued before it is done.
func (q *Queue) Download(dst []float32, b Buffer) error {
	if len(dst) > b.N {
		return fmt.Errorf("cuda: downloading %d values from a buffer of %d", len(dst), b.N)
	}
	if len(dst) == 0 {
		return nil
	}
	return q.locked(func() error {
		if err := q.d.drv.CopyDtoH(unsafe.Pointer(&dst[0]), b.Ptr, uint64(len(dst))*4, q.stream); err != nil {
			return err
		}
		return q.d.drv.StreamSynchronize(q.stream)
	})
}

// Synchronize waits for the queue's work.
func (q *Queue) Synchronize() error {
	return q.locked(func() error { return q.d.drv.StreamSynchronize(q.stream) })
}

// Gemm queues a row-major product (see cudalib.Gemm) on the queue, in
// float32, or TF32 when the device was opened with it.
func (q *Queue) Gemm(g cudalib.Gemm) error {
	return q.locked(func() error { return q.d.blas.Sgemm(q.handle, g) })
}
