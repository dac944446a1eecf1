// Package device opens the compute backend a device name chooses — the
// names of the commands' -device flag: "cpu" (compute.CPU, the reference
// numbers), "cuda" (GPU 0) or "cuda:N" — so that every command and program
// parses and opens devices the same way. The encoders take the backend
// through their options (encoders.Options{Backend: b}), and so do the
// metrics' model loaders (rovist, groovist, vrank).
package device

import (
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
)

// Error is a device that cannot be opened: an unknown name, or a GPU
// that cannot be used (the CUDA libraries missing, no such GPU), in one
// line, e.g. `cuda: CUDA driver not found (libcuda.so.1) in
// STORYEVAL_CUDA_LIB_PATH, ...`.
type Error struct {
	// Name is the device name as given.
	Name string
	// Err is why it cannot be opened.
	Err error
}

// Error implements error: the name, then the reason.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", quote(e.Name), strings.TrimPrefix(e.Err.Error(), "cuda: "))
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// Open returns the backend the device name chooses and what releases it
// (for a GPU: its memory, streams and context; for the CPU: nothing). o
// chooses the CUDA libraries and the precision; its Index is replaced by
// the name's N. The zero Options are the reference default: float32 with
// TF32 off, libraries from STORYEVAL_CUDA_LIB_PATH and the system.
func Open(name string, o cuda.Options) (compute.Backend, io.Closer, error) {
	isCUDA, index, err := cuda.ParseDevice(name)
	if err != nil {
		return nil, nil, &Error{Name: name, Err: fmt.Errorf("unknown device: want cpu, cuda or cuda:N (N the GPU's index, from 0)")}
	}
	if !isCUDA {
		return compute.CPU(), nopCloser{}, nil
	}
	o.Index = index
	b, err := cuda.NewBackend(o)
	if err != nil {
		return nil, nil, &Error{Name: name, Err: err}
	}
	return b, b, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// quote returns the name as the user gave it, cut to 40 characters and
// quoted when it is not a plain word.
func quote(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	if s == "" || strings.ContainsAny(s, " \t\n\"'") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
