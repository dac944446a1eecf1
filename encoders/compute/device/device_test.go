package device

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// TestOpenCPU checks that "cpu" is the CPU backend, the reference default.
func TestOpenCPU(t *testing.T) {
	b, c, err := Open("cpu", cuda.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Name() != compute.CPU().Name() {
		t.Errorf("cpu opened %s, want %s", b.Name(), compute.CPU().Name())
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestOpenUnknown checks the one-line error of a name that is no device.
func TestOpenUnknown(t *testing.T) {
	for _, name := range []string{"gpu", "cuda:-1", "cuda:x", "CPU", "", "cuda:" + strings.Repeat("9", 60)} {
		_, _, err := Open(name, cuda.Options{})
		var de *Error
		if err == nil || !errors.As(err, &de) || de.Name != name {
			t.Errorf("Open(%q): error %v, want a *device.Error", name, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "want cpu, cuda or cuda:N") || strings.Contains(msg, "\n") || len(msg) > 150 {
			t.Errorf("Open(%q): %q", name, msg)
		}
	}
}

// TestOpenCUDAUnusable checks that asking for a GPU that cannot be used
// is one line starting with the name and saying why: without a GPU (CI)
// that the CUDA driver is missing and where it looked; on a GPU machine,
// that a GPU index past the last does not exist.
func TestOpenCUDAUnusable(t *testing.T) {
	r := cuda.Discover(cudalib.Options{})
	names, want := []string{"cuda", "cuda:0", "cuda:7"}, "libcuda.so.1"
	if r.Usable(0) == nil {
		names, want = []string{fmt.Sprintf("cuda:%d", len(r.GPUs))}, "no GPU"
	}
	for _, name := range names {
		_, _, err := Open(name, cuda.Options{})
		if err == nil {
			t.Fatalf("Open(%q) succeeded", name)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, name+": ") || strings.Contains(msg, "\n") || !strings.Contains(msg, want) {
			t.Errorf("Open(%q): %q: want one line starting with the name and naming %s", name, msg, want)
		}
	}
}

// TestEncoderOptions: "cpu" gives the zero Options (no backend, the
// reference default) and a closer; a name that is no device is Open's
// error.
func TestEncoderOptions(t *testing.T) {
	opts, c, err := EncoderOptions("cpu", cuda.Options{})
	if err != nil || opts.Backend != nil || c == nil || c.Close() != nil {
		t.Fatalf("cpu: %+v, %v, %v", opts, c, err)
	}
	var de *Error
	if _, c, err := EncoderOptions("gpu", cuda.Options{}); !errors.As(err, &de) || de.Name != "gpu" || c != nil {
		t.Fatalf("gpu: %v, %v", c, err)
	}
}
