package cuda

import (
	"fmt"
	"unsafe"
)

// HostBuffer is page-locked host memory: copies between it and the device
// run asynchronously at full bus speed (no staging through a driver
// buffer), so a worker can queue the next batch's input while the GPU
// works. Its Data must not be touched while a queued copy uses it.
type HostBuffer struct {
	Data []float32
	p    unsafe.Pointer
}

// AllocHost allocates n float32 values of page-locked host memory; FreeHost
// releases them.
func (d *Device) AllocHost(n int) (HostBuffer, error) {
	done, err := d.current()
	if err != nil {
		return HostBuffer{}, err
	}
	defer done()
	p, err := d.drv.AllocHost(uint64(n) * 4)
	if err != nil {
		return HostBuffer{}, d.wrap(fmt.Errorf("allocating %d page-locked float32 values: %w", n, err))
	}
	// A Go slice over C memory (page-locked by the driver): sound while the
	// memory is allocated, and FreeHost clears it before releasing it.
	return HostBuffer{Data: unsafe.Slice((*float32)(p), n), p: p}, nil
}

// FreeHost releases an AllocHost and clears *h, so that no Go slice is
// left pointing at the released range: the garbage collector ignores
// pointers outside the Go heap, but if the heap later maps an arena over
// that range, a stale Data would be a pointer into the heap that no
// allocation made ("found bad pointer in Go heap", issue 21). Freeing a
// cleared buffer is a no-op.
func (d *Device) FreeHost(h *HostBuffer) error {
	if h.p == nil {
		return nil
	}
	done, err := d.current()
	if err != nil {
		return err
	}
	defer done()
	p := h.p
	*h = HostBuffer{}
	return d.wrap(d.drv.FreeHost(p))
}

// CopyInAsync queues a copy of h.Data into the start of b and returns at
// once.
func (q *Queue) CopyInAsync(b Buffer, h HostBuffer) error {
	if len(h.Data) > b.N {
		return fmt.Errorf("cuda: copying %d values into a buffer of %d", len(h.Data), b.N)
	}
	return q.locked(func() error { return q.d.drv.CopyHtoD(b.Ptr, h.p, uint64(len(h.Data))*4, q.stream) })
}

// DownloadAsync queues a copy of the start of b into h.Data and returns at
// once; h.Data holds the values after Synchronize.
func (q *Queue) DownloadAsync(h HostBuffer, b Buffer) error {
	if len(h.Data) > b.N {
		return fmt.Errorf("cuda: downloading %d values from a buffer of %d", len(h.Data), b.N)
	}
	return q.locked(func() error { return q.d.drv.CopyDtoH(h.p, b.Ptr, uint64(len(h.Data))*4, q.stream) })
}
