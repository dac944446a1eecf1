// Package safetensors writes tensors in the safetensors format (an 8-byte
// little-endian header length, a JSON header naming each tensor's dtype, shape
// and byte range, then the packed little-endian data), the format HuggingFace
// model folders use and encoders/checkpoint reads.
//
// Tensors are written in name order with their data packed in that order, as
// the safetensors library does, and the header is padded with spaces to a
// multiple of 8 bytes so that the data is aligned.
package safetensors

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// Tensor is one named tensor to write: exactly one of F32 or I64 holds its
// elements, row-major, and Shape their dimensions.
type Tensor struct {
	Name  string
	Shape []int
	F32   []float32
	I64   []int64
}

func (t Tensor) dtype() (string, int, error) {
	n := 1
	for _, d := range t.Shape {
		if d < 0 {
			return "", 0, fmt.Errorf("tensor %q has a negative dimension %v", t.Name, t.Shape)
		}
		n *= d
	}
	switch {
	case t.F32 != nil && t.I64 == nil && len(t.F32) == n:
		return "F32", n * 4, nil
	case t.I64 != nil && t.F32 == nil && len(t.I64) == n:
		return "I64", n * 8, nil
	}
	return "", 0, fmt.Errorf("tensor %q: shape %v does not match its data (%d float32, %d int64 elements)", t.Name, t.Shape, len(t.F32), len(t.I64))
}

type entry struct {
	DType   string `json:"dtype"`
	Shape   []int  `json:"shape"`
	Offsets [2]int `json:"data_offsets"`
}

// Write writes the tensors to w in the safetensors format, with metadata
// (may be nil) as the header's "__metadata__" string map.
func Write(w io.Writer, tensors []Tensor, metadata map[string]string) error {
	ts := append([]Tensor(nil), tensors...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	header := make(map[string]any, len(ts)+1)
	if metadata != nil {
		header["__metadata__"] = metadata
	}
	off := 0
	for i, t := range ts {
		if t.Name == "" || t.Name == "__metadata__" {
			return fmt.Errorf("invalid tensor name %q", t.Name)
		}
		if i > 0 && ts[i-1].Name == t.Name {
			return fmt.Errorf("tensor %q given twice", t.Name)
		}
		dt, size, err := t.dtype()
		if err != nil {
			return err
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		header[t.Name] = entry{DType: dt, Shape: shape, Offsets: [2]int{off, off + size}}
		off += size
	}
	h, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	// Pad to a multiple of 8 (aligned data) and keep the first byte of the
	// length off 0x80: encoders/checkpoint sniffs a file starting with 0x80
	// (pickle's PROTO opcode) as a legacy torch pickle.
	for len(h)%8 != 0 || byte(len(h)) == 0x80 {
		h = append(h, ' ')
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(h)))
	bw.Write(n[:])
	bw.Write(h)
	var b [8]byte
	for _, t := range ts {
		for _, v := range t.F32 {
			binary.LittleEndian.PutUint32(b[:4], math.Float32bits(v))
			bw.Write(b[:4])
		}
		for _, v := range t.I64 {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// WriteFile writes the tensors to path atomically: into a temporary file in
// the same folder, synced, then renamed over path, so that a reader never sees
// a half-written file, even if the process dies while writing.
func WriteFile(path string, tensors []Tensor, metadata map[string]string) error {
	return AtomicWrite(path, func(w io.Writer) error { return Write(w, tensors, metadata) })
}

// AtomicWrite writes a file through fill into a temporary file next to path,
// syncs it and renames it to path; on any error the temporary file is removed
// and path is left as it was.
func AtomicWrite(path string, fill func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
