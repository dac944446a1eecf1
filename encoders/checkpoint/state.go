package checkpoint

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"gorgonia.org/tensor"
)

// Format names the container a State was read from.
type Format string

// The checkpoint formats Open recognises.
const (
	FormatSafetensors Format = "safetensors"
	FormatTorchZip    Format = "torch-zip"    // torch.save since PyTorch 1.6
	FormatTorchLegacy Format = "torch-legacy" // torch.save before 1.6 (_use_new_zipfile_serialization=False)
	FormatSharded     Format = "sharded"      // several files listed by a *.index.json
)

// TensorInfo describes a stored tensor without reading it.
type TensorInfo struct {
	Name  string
	DType DType
	// Shape as stored; a scalar has an empty shape.
	Shape []int
}

// State is an opened checkpoint: named tensors (HF names such as
// "encoder.layer.0.attention.self.query.weight") and, for torch pickles,
// the non-tensor entries of the pickled dict. Tensors are read on demand
// from the memory-mapped file, so opening is cheap and memory is spent only
// on the tensors asked for.
//
// A State is safe for concurrent use. Reading after Close is an error, never
// a fault.
type State struct {
	files   *fileSet // shared by Sub views
	owner   bool     // only the State Open returned closes the files
	format  Format
	tensors map[string]*entry
	values  map[string]any
	meta    map[string]string
	opts    Options
}

// entry is one tensor: a strided view of a byte range of an open file.
type entry struct {
	dtype   DType
	shape   []int
	strides []int // elements; nil means contiguous (row-major)
	offset  int64 // elements from the start of data
	data    []byte
	// bigEndian marks storages written on a big-endian machine.
	bigEndian bool
	// mapped marks data inside a file mapping, whose pages are released
	// after each contiguous read (see releasePages).
	mapped bool
	// f32 is the caller's slice behind a FromFloat32 entry (data is its
	// bytes), which Float32 returns without copying.
	f32 []float32
}

// fileSet owns the mappings and files behind a State.
type fileSet struct {
	mu      sync.RWMutex
	closed  bool
	closers []func() error
}

// close runs the closers once; entries, when given, are the State's
// tensors, whose views into a mapping are dropped with it.
func (f *fileSet) close(entries map[string]*entry) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	var errs []error
	for _, c := range f.closers {
		if err := c(); err != nil {
			errs = append(errs, err)
		}
	}
	f.closers = nil
	// No slice may outlive its unmapped range: the garbage collector
	// ignores pointers outside the Go heap, but the heap may later map an
	// arena over the range, and a stale view would then be a pointer into
	// the heap that no allocation made ("found bad pointer in Go heap").
	// Readers see closed before touching data, under the same lock.
	for _, e := range entries {
		if e.mapped {
			e.data = nil
		}
	}
	return errors.Join(errs...)
}

// ErrClosed is returned by reads from a State whose files were closed.
var ErrClosed = errors.New("state is closed")

// Format is the container the tensors were read from.
func (s *State) Format() Format { return s.format }

// Names returns the tensor names in sorted order.
func (s *State) Names() []string {
	names := make([]string, 0, len(s.tensors))
	for n := range s.tensors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Len is the number of tensors.
func (s *State) Len() int { return len(s.tensors) }

// Has reports whether a tensor of that name exists.
func (s *State) Has(name string) bool { _, ok := s.tensors[name]; return ok }

// Info returns the type and shape of the named tensor.
func (s *State) Info(name string) (TensorInfo, bool) {
	e, ok := s.tensors[name]
	if !ok {
		return TensorInfo{}, false
	}
	return TensorInfo{Name: name, DType: e.dtype, Shape: append([]int(nil), e.shape...)}, true
}

// Metadata returns the safetensors "__metadata__" strings (nil otherwise).
func (s *State) Metadata() map[string]string {
	if s.meta == nil {
		return nil
	}
	m := make(map[string]string, len(s.meta))
	for k, v := range s.meta {
		m[k] = v
	}
	return m
}

// ValueNames returns, in sorted order, the names of the non-tensor entries of
// a pickled checkpoint, such as "epoch", "valid_loss" or "opt" of a training
// checkpoint (.pth.tar). Nested dicts that hold tensors are flattened into dotted names,
// the way their tensors are; a container without tensors is one value.
func (s *State) ValueNames() []string {
	names := make([]string, 0, len(s.values))
	for n := range s.values {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Value returns a non-tensor entry of a pickled checkpoint as a plain Go
// value (see Tuple for the mapping of Python types): "epoch" of a training
// checkpoint is an int64, "valid_loss" a float64, "opt" an inert *Object of
// class argparse.Namespace whose Attr gives its fields.
func (s *State) Value(name string) (any, bool) {
	v, ok := s.values[name]
	return v, ok
}

// Sub returns the entries whose names start with prefix, with the prefix
// removed: Sub("model.albert.") of a training checkpoint that
// stores an AlbertModel under that prefix has the AlbertModel names. The view shares the open files; its Close does nothing,
// and it fails with ErrClosed once the State it came from is closed.
func (s *State) Sub(prefix string) *State {
	sub := &State{files: s.files, format: s.format, meta: s.meta, opts: s.opts,
		tensors: make(map[string]*entry), values: make(map[string]any)}
	for n, e := range s.tensors {
		if strings.HasPrefix(n, prefix) {
			sub.tensors[n[len(prefix):]] = e
		}
	}
	for n, v := range s.values {
		if strings.HasPrefix(n, prefix) {
			sub.values[n[len(prefix):]] = v
		}
	}
	return sub
}

// Close releases the files of a State returned by Open or OpenDir; it is a
// no-op on a Sub view. Closing twice is harmless.
func (s *State) Close() error {
	if !s.owner || s.files == nil {
		return nil
	}
	return s.files.close(s.tensors)
}

// Float32 reads the named floating-point tensor (F32, F16, BF16 or F64) into
// a new float32 tensor of the stored shape, materialising strided views.
// F16 and BF16 convert exactly; F64 rounds to nearest even. Matches the
// reference implementation (PyTorch), whose Tensor.float() rounds F64 the
// same way and whose strided views read storage[offset + Σ index·stride].
func (s *State) Float32(name string) (*tensor.Dense, error) {
	return readTensor(s, name, true, decodeFloat32)
}

// ReadFloat32 is Float32 into a caller-provided buffer of exactly the
// tensor's element count, for callers that reuse memory.
func (s *State) ReadFloat32(name string, dst []float32) error {
	e, err := s.lookup(name)
	if err != nil {
		return err
	}
	if !e.dtype.IsFloat() {
		return fmt.Errorf("tensor %q is %s, not floating point", name, e.dtype)
	}
	if n := numElements(e.shape); int64(len(dst)) != n {
		return fmt.Errorf("tensor %q has %d elements, destination %d", name, n, len(dst))
	}
	if err := s.read(e, func(src []byte, dstStart, count int) {
		decodeFloat32(dst[dstStart:dstStart+count], src, e.dtype, e.bigEndian)
	}); err != nil {
		return fmt.Errorf("reading %q: %w", name, err)
	}
	return nil
}

// Int64 reads the named integer or bool tensor (I64, I32, I16, I8, U8, BOOL)
// into a new int64 tensor, e.g. the embeddings.position_ids buffer.
func (s *State) Int64(name string) (*tensor.Dense, error) {
	return readTensor(s, name, false, decodeInt64)
}

// readTensor reads a floating-point (float) or integer tensor into a new
// tensor of the stored shape, decoding with decode.
func readTensor[T float32 | int64](s *State, name string, float bool, decode func([]T, []byte, DType, bool)) (*tensor.Dense, error) {
	e, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	if e.dtype.IsFloat() != float {
		if float {
			return nil, fmt.Errorf("tensor %q is %s, not floating point (use Int64)", name, e.dtype)
		}
		return nil, fmt.Errorf("tensor %q is %s, not integer (use Float32)", name, e.dtype)
	}
	if shared, ok := any(e.f32).([]T); ok && e.f32 != nil {
		return tensor.New(tensor.WithShape(e.shape...), tensor.WithBacking(shared)), nil
	}
	n, err := s.checkSize(name, e)
	if err != nil {
		return nil, err
	}
	buf := make([]T, n)
	if err := s.read(e, func(src []byte, dstStart, count int) {
		decode(buf[dstStart:dstStart+count], src, e.dtype, e.bigEndian)
	}); err != nil {
		return nil, fmt.Errorf("reading %q: %w", name, err)
	}
	return tensor.New(tensor.WithShape(e.shape...), tensor.WithBacking(buf)), nil
}

func (s *State) lookup(name string) (*entry, error) {
	e, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("no tensor named %q", name)
	}
	return e, nil
}

// checkSize refuses what a gorgonia tensor cannot hold (no elements) and
// what exceeds MaxTensorElements.
func (s *State) checkSize(name string, e *entry) (int, error) {
	s.files.mu.RLock()
	closed, stored := s.files.closed, len(e.data) // Close drops e.data
	s.files.mu.RUnlock()
	if closed {
		return 0, fmt.Errorf("reading %q: %w", name, ErrClosed)
	}
	n := numElements(e.shape)
	if n == 0 {
		return 0, fmt.Errorf("tensor %q has shape %v with no elements, which a gorgonia tensor cannot hold", name, e.shape)
	}
	if n > s.opts.MaxTensorElements {
		return 0, fmt.Errorf("tensor %q has %d elements, above the limit of %d", name, n, s.opts.MaxTensorElements)
	}
	ratio := s.opts.MaxExpansionRatio
	if ratio <= 0 {
		ratio = defaultMaxExpansionRatio
	}
	if stored := max(int64(stored/e.dtype.Size()), 1); e.strides != nil && n/ratio > stored {
		return 0, fmt.Errorf("tensor %q repeats its %d stored elements into %d, more than %d times (a decompression bomb?)",
			name, stored, n, ratio)
	}
	return int(n), nil
}

// numElements is the product of shape; shapes were checked for overflow
// when the file was opened.
func numElements(shape []int) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= int64(d)
	}
	return n
}
