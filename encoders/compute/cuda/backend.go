package cuda

import (
	"errors"
	"fmt"
	"sync"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// Backend is compute.Backend on one GPU: tensors live in device memory,
// every operation is queued on the backend's stream (cuBLAS for the
// products, the kernels of package kernels for the rest), and Download
// waits for the values. Open one with NewBackend and pass it to the
// encoders (encoders.Options{Backend: b}); Close releases the GPU.
//
// compute.Backend's operations return no error, so a failed CUDA call
// (out of memory, a launch failure) is kept: the operations after it do
// nothing, Download zeroes what it was asked for, and Err returns the first
// error, one line naming the GPU and the call. A caller checks Err after a
// forward pass (compute.Err does for any backend that keeps one) and may
// retry with a smaller batch on a fresh Backend when it reports out of
// memory.
//
// A Backend is safe for concurrent use: its operations run one at a time
// on its stream (an attention call's steps share scratch memory). For
// workers that should overlap on one GPU, Worker returns a Backend on a
// stream of its own sharing the device and its compiled kernels.
type Backend struct {
	d    *Device
	q    *Queue
	own  bool // Close closes the device
	name string

	mu  sync.Mutex
	err error
	// pool holds freed buffers by size for reuse: cuMemAlloc is slow and
	// cuMemFree waits for the whole GPU, so a forward pass's temporaries
	// are recycled instead. Reuse is safe on one stream: the work that
	// used a buffer is queued before the work that reuses it.
	pool map[int][]Buffer
}

// tensor is Backend's compute.Tensor: a device buffer, or a view of one.
type tensor struct {
	b     Buffer
	owner *Backend
	view  bool
}

// Len implements compute.Tensor.
func (t *tensor) Len() int { return t.b.N }

// NewBackend opens GPU o.Index (see Open) as a compute.Backend. It fails
// with the one-line reason when the GPU cannot be used.
func NewBackend(o Options) (*Backend, error) {
	d, err := Open(o)
	if err != nil {
		return nil, err
	}
	mode := "float32"
	switch {
	case o.BF16:
		mode = "bf16"
	case o.TF32:
		mode = "tf32"
	}
	return &Backend{d: d, q: d.Queue, own: true, name: fmt.Sprintf("cuda:%d/%s", d.index, mode)}, nil
}

// Worker returns a Backend on a new stream of the same GPU, for a worker
// that runs beside others; its tensors may be used by b and the reverse
// only after both synchronise (Download).
func (b *Backend) Worker() (*Backend, error) {
	q, err := b.d.NewQueue()
	if err != nil {
		return nil, err
	}
	return &Backend{d: b.d, q: q, name: b.name}, nil
}

// Close releases the backend's pooled memory and, for the Backend
// NewBackend returned, the GPU: tensors not freed go with it.
func (b *Backend) Close() error {
	b.mu.Lock()
	err := b.drainPool()
	b.mu.Unlock()
	if !b.own {
		return err
	}
	return errors.Join(err, b.d.Close())
}

// drainPool frees the pooled buffers; b.mu is held.
func (b *Backend) drainPool() error {
	var errs []error
	for n, bufs := range b.pool {
		for _, buf := range bufs {
			errs = append(errs, b.q.Free(buf))
		}
		delete(b.pool, n)
	}
	return errors.Join(errs...)
}

// alloc returns a buffer of n values from the pool or the device; out of
// memory, it frees the pool and tries once more. b.mu is held.
func (b *Backend) alloc(n int) (Buffer, error) {
	if bufs := b.pool[n]; len(bufs) > 0 {
		buf := bufs[len(bufs)-1]
		b.pool[n] = bufs[:len(bufs)-1]
		return buf, nil
	}
	buf, err := b.q.Alloc(n)
	if err != nil && errOutOfMemory(err) && len(b.pool) > 0 {
		if derr := b.drainPool(); derr != nil {
			return Buffer{}, errors.Join(err, derr)
		}
		buf, err = b.q.Alloc(n)
	}
	return buf, err
}

// Err returns the first error of an operation, or nil (compute.Failer).
// An out-of-memory error matches compute.ErrOutOfMemory (errors.Is).
func (b *Backend) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// ResetErr implements compute.ErrResetter: it waits for the stream, clears
// the kept error and returns it, so that a caller may retry a forward
// pass with a smaller batch after running out of memory. A failed kernel
// launch that poisoned the context fails again on the next operation.
func (b *Backend) ResetErr() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.err
	b.err = nil
	if serr := b.q.Synchronize(); serr != nil {
		b.err = &opError{op: "synchronize", err: serr}
	}
	return err
}

// opError is a kept failure: the operation and the CUDA error.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return e.op + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

// Is makes an out-of-memory failure match compute.ErrOutOfMemory.
func (e *opError) Is(target error) bool {
	return target == compute.ErrOutOfMemory && errOutOfMemory(e.err)
}

// run performs one operation under the backend's lock unless an earlier
// one failed, keeping its error.
func (b *Backend) run(op string, fn func() error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return
	}
	if err := fn(); err != nil {
		b.err = &opError{op: op, err: err}
	}
}

// buf returns the buffer of one of b's tensors (nil: a zero buffer).
func (b *Backend) buf(t compute.Tensor) Buffer {
	if t == nil {
		return Buffer{}
	}
	ct, ok := t.(*tensor)
	if !ok || ct.owner.d != b.d {
		panic(fmt.Sprintf("cuda: the backend was given a %T tensor of another backend", t)) // a programming error, as the CPU backend's
	}
	return ct.b
}

// Name implements compute.Backend: "cuda:N/float32", "cuda:N/tf32" or
// "cuda:N/bf16".
func (b *Backend) Name() string { return b.name }

// Alloc implements compute.Backend.
func (b *Backend) Alloc(n int) compute.Tensor {
	t := &tensor{owner: b, b: Buffer{N: n}}
	b.run("alloc", func() error {
		buf, err := b.alloc(n)
		if err != nil {
			return err
		}
		t.b = buf
		return b.q.Zero(buf)
	})
	return t
}

// Upload implements compute.Backend.
func (b *Backend) Upload(data []float32) compute.Tensor {
	t := &tensor{owner: b, b: Buffer{N: len(data)}}
	b.run("upload", func() error {
		buf, err := b.alloc(len(data))
		if err != nil {
			return err
		}
		t.b = buf
		return b.q.CopyIn(buf, data)
	})
	return t
}

// Download implements compute.Backend; after an error it zeroes dst.
func (b *Backend) Download(dst []float32, t compute.Tensor) {
	src := b.buf(t)
	ok := false
	b.run("download", func() error {
		err := b.q.Download(dst, src)
		ok = err == nil
		return err
	})
	if !ok {
		clear(dst)
	}
}

// Slice implements compute.Backend.
func (b *Backend) Slice(t compute.Tensor, lo, hi int) compute.Tensor {
	src := b.buf(t)
	if lo < 0 || hi < lo || hi > src.N {
		panic(fmt.Sprintf("cuda: slice [%d:%d] of a tensor of %d values", lo, hi, src.N))
	}
	v := src.At(lo)
	v.N = hi - lo
	return &tensor{owner: b, b: v, view: true}
}

// Free implements compute.Backend: the buffer goes to the backend's pool
// for the next tensor of its size (views free nothing).
func (b *Backend) Free(t compute.Tensor) {
	ct, ok := t.(*tensor)
	if !ok || ct.view || ct.b.Ptr == 0 {
		return
	}
	buf := ct.b
	ct.b = Buffer{}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pool == nil {
		b.pool = map[int][]Buffer{}
	}
	b.pool[buf.N] = append(b.pool[buf.N], buf)
}

// Gemm implements compute.Backend with cuBLAS: float32, or TF32 or BF16
// tensor cores when the backend was opened with Options.TF32 or .BF16.
func (b *Backend) Gemm(transA, transB bool, m, n, k int, alpha float32, a compute.Tensor, lda int, bt compute.Tensor, ldb int, beta float32, c compute.Tensor, ldc int) {
	g := cudalib.Gemm{TransA: transA, TransB: transB, M: m, N: n, K: k, Alpha: alpha, Beta: beta,
		A: b.buf(a).Ptr, B: b.buf(bt).Ptr, C: b.buf(c).Ptr, LDA: lda, LDB: ldb, LDC: ldc}
	gemm := b.q.Gemm
	if b.d.bf16 {
		gemm = b.q.GemmBF16
	}
	b.run("gemm", func() error { return gemm(g) })
}

// BiasAct implements compute.Backend (kernel bias_act_f32; the activation
// codes are compute.Activation's).
func (b *Backend) BiasAct(x, bias compute.Tensor, width int, act compute.Activation) {
	xb, bb := b.buf(x), b.buf(bias)
	rows := xb.N / width
	b.run("bias+activation", func() error {
		return b.q.Launch("bias_act_f32", Shape{Elems: rows * width},
			new(cudalib.Args).Ptr(xb.Ptr).Ptr(bb.Ptr).Int(int32(rows)).Int(int32(width)).Int(int32(act)))
	})
}

// Add implements compute.Backend.
func (b *Backend) Add(dst, x compute.Tensor) {
	db, xb := b.buf(dst), b.buf(x)
	b.run("add", func() error {
		return b.q.Launch("add_f32", Shape{Elems: xb.N}, new(cudalib.Args).Ptr(db.Ptr).Ptr(xb.Ptr).Int64(int64(xb.N)))
	})
}

// LayerNorm implements compute.Backend (the inference form of
// layernorm_fwd_f32).
func (b *Backend) LayerNorm(dst, x, gamma, beta compute.Tensor, width int, eps float64) {
	db, xb, gb, bb := b.buf(dst), b.buf(x), b.buf(gamma), b.buf(beta)
	rows := xb.N / width
	b.run("layernorm", func() error {
		return b.q.Launch("layernorm_fwd_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(xb.Ptr).Ptr(gb.Ptr).Ptr(bb.Ptr).Ptr(db.Ptr).
			Ptr(0).Ptr(0).Int(int32(rows)).Int(int32(width)).Float64(eps))
	})
}

// Attention implements compute.Backend (Queue.Attention).
func (b *Backend) Attention(dst, q, k, v compute.Tensor, s compute.AttentionShape, mask compute.Mask) {
	db, qb, kb, vb := b.buf(dst), b.buf(q), b.buf(k), b.buf(v)
	shape := AttentionShape{Batch: s.Batch, Seq: s.Seq, Heads: s.Heads, HeadDim: s.HeadDim, Scale: s.Scale}
	b.run("attention", func() error { return b.q.Attention(db, qb, kb, vb, shape, mask.KeyValid, mask.Causal) })
}

// Embed implements compute.Backend: one embed_gather_f32 per table, in
// order, the first writing and the others adding, as the CPU backend sums
// left to right.
func (b *Backend) Embed(dst compute.Tensor, width int, tables []compute.Tensor, ids [][]int, period []int) {
	db := b.buf(dst)
	rows := db.N / width
	bufs := make([]Buffer, len(tables))
	for i, t := range tables {
		bufs[i] = b.buf(t)
	}
	b.run("embed", func() error {
		if len(ids) != len(tables) || len(period) != len(tables) {
			return fmt.Errorf("cuda: %d tables with %d id lists and %d periods", len(tables), len(ids), len(period))
		}
		off := 0
		for i, tb := range bufs {
			var idb Buffer
			if ids[i] != nil {
				if len(ids[i]) < rows {
					return fmt.Errorf("cuda: table %d: %d ids for %d rows", i, len(ids[i]), rows)
				}
				raw, err := int32Bytes(ids[i][:rows])
				if err != nil {
					return err
				}
				if idb, err = b.q.uploadBytes(raw, off); err != nil {
					return err
				}
				off += len(raw)
			}
			acc := int32(0)
			if i > 0 {
				acc = 1
			}
			err := b.q.Launch("embed_gather_f32", Shape{Elems: rows * width}, new(cudalib.Args).Ptr(db.Ptr).Ptr(tb.Ptr).Ptr(idb.Ptr).
				Int(int32(rows)).Int(int32(width)).Int(int32(period[i])).Int(acc))
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Rows implements compute.Backend (gather_rows_f32; a negative index
// leaves its row).
func (b *Backend) Rows(dst, src compute.Tensor, width int, idx []int) {
	db, sb := b.buf(dst), b.buf(src)
	b.run("rows", func() error {
		raw, err := int32Bytes(idx)
		if err != nil {
			return err
		}
		ib, err := b.q.uploadBytes(raw, 0)
		if err != nil {
			return err
		}
		return b.q.Launch("gather_rows_f32", Shape{Elems: len(idx) * width}, new(cudalib.Args).Ptr(db.Ptr).Ptr(sb.Ptr).Ptr(ib.Ptr).
			Int(int32(len(idx))).Int(int32(width)))
	})
}

// Normalize implements compute.Backend (x / ‖x‖ per row, as CLIP).
func (b *Backend) Normalize(x compute.Tensor, width int) {
	xb := b.buf(x)
	rows := xb.N / width
	b.run("normalize", func() error {
		return b.q.Launch("l2_normalize_f32", Shape{Rows: rows}, new(cudalib.Args).Ptr(xb.Ptr).Int(int32(rows)).Int(int32(width)).Float32(0))
	})
}

var _ compute.Backend = (*Backend)(nil)

// errOutOfMemory reports whether err is a CUDA out-of-memory error.
func errOutOfMemory(err error) bool {
	var ce *cudalib.Error
	return errors.As(err, &ce) && ce.OutOfMemory()
}
