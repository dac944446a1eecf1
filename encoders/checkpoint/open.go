package checkpoint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// Open opens one checkpoint file with the default Options; the format is
// sniffed from its first bytes: safetensors, a torch.save zip archive
// (pytorch_model.bin, training checkpoints such as *.pth.tar) or a legacy (pre-1.6) torch pickle.
// Close the State when done.
func Open(path string) (*State, error) { return Options{}.Open(path) }

// OpenDir opens a HuggingFace model directory with the default Options; see
// Options.OpenDir.
func OpenDir(dir string) (*State, error) { return Options{}.OpenDir(dir) }

// Open is the package-level Open with these limits.
func (o Options) Open(path string) (*State, error) {
	o = o.withDefaults()
	data, mapped, release, err := o.load(path)
	if err != nil {
		return nil, err
	}
	st, err := o.parse(path, data)
	if err != nil {
		if cerr := release(); cerr != nil {
			err = fmt.Errorf("%w (and releasing it: %v)", err, cerr)
		}
		return nil, err
	}
	st.files.closers = append(st.files.closers, release)
	for _, e := range st.tensors {
		// Inflated zip entries live on the Go heap: never advise on those.
		e.mapped = mapped && within(e.data, data)
	}
	return st, nil
}

// load maps the file (or reads it when mapping is off or fails) and reports
// which it did.
func (o Options) load(path string) (data []byte, mapped bool, release func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil, err
	}
	defer f.Close() // a mapping outlives its descriptor
	fi, err := f.Stat()
	if err != nil {
		return nil, false, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, nil, fmt.Errorf("%s is not a regular file", path)
	}
	size := fi.Size()
	if !o.NoMmap {
		if b, release, err := mapFile(f, size); err == nil {
			return b, b != nil, release, nil
		}
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b, false, func() error { return nil }, nil
}

// parse sniffs the format of data, the whole content of the file at path.
func (o Options) parse(path string, data []byte) (*State, error) {
	var (
		st  *State
		err error
	)
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		st, err = o.parseTorchZip(data)
	// Safetensors before the pickle check: its first byte is the low byte
	// of the header length, which is 0x80 (the pickle PROTO opcode) for one
	// header length in 32. A legacy pickle's ninth byte is never '{' with a
	// plausible header length in front of it. (A header length the file
	// cannot hold is still read as safetensors, to be refused as such.)
	case len(data) > 8 && data[8] == '{' && (data[0] != opProto || binary.LittleEndian.Uint64(data) <= uint64(len(data)-8)):
		st, err = o.parseSafetensors(data)
	case len(data) >= 2 && data[0] == opProto:
		st, err = o.parseTorchLegacy(data)
	case len(data) > 262 && string(data[257:262]) == "ustar":
		err = fmt.Errorf("a tar archive: the torch.save format of PyTorch < 0.4 is not supported")
	default:
		err = fmt.Errorf("not a safetensors, torch zip or torch pickle file")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st.opts = o
	st.owner = true
	return st, nil
}

func newState(format Format) *State {
	return &State{files: &fileSet{}, format: format, tensors: make(map[string]*entry), values: make(map[string]any)}
}

// within reports whether sub is a sub-slice of whole's memory. The
// addresses are compared as integers and never turned back into pointers;
// sub and whole keep their memory alive for the call.
func within(sub, whole []byte) bool {
	if len(sub) == 0 || len(whole) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(&whole[0]))
	p := uintptr(unsafe.Pointer(&sub[0]))
	return p >= lo && p+uintptr(len(sub)) <= lo+uintptr(len(whole))
}
