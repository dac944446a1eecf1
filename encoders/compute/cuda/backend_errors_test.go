package cuda

import (
	"errors"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// TestKeptErrorOutOfMemory checks that a kept failure matches
// compute.ErrOutOfMemory exactly when CUDA said out of memory, and keeps
// the CUDA error for errors.As.
func TestKeptErrorOutOfMemory(t *testing.T) {
	oom := &cudalib.Error{Library: cudalib.Driver, Func: "cuMemAlloc_v2", Code: 2, Name: "CUDA_ERROR_OUT_OF_MEMORY", Detail: "out of memory"}
	launch := &cudalib.Error{Library: cudalib.Driver, Func: "cuLaunchKernel", Code: 719, Name: "CUDA_ERROR_LAUNCH_FAILED"}
	blasOOM := &cudalib.Error{Library: cudalib.CuBLAS, Func: "cublasSgemm_v2", Code: 3, Name: "CUBLAS_STATUS_ALLOC_FAILED"}
	for _, c := range []struct {
		err  *cudalib.Error
		want bool
	}{{oom, true}, {launch, false}, {blasOOM, true}} {
		var err error = &opError{op: "alloc", err: c.err}
		if got := errors.Is(err, compute.ErrOutOfMemory); got != c.want {
			t.Errorf("%v: errors.Is(ErrOutOfMemory) = %v, want %v", err, got, c.want)
		}
		var ce *cudalib.Error
		if !errors.As(err, &ce) || ce != c.err {
			t.Errorf("%v: errors.As lost the CUDA error", err)
		}
		if want := "alloc: " + c.err.Error(); err.Error() != want {
			t.Errorf("message %q, want %q", err.Error(), want)
		}
	}
}

var (
	_ compute.Failer      = (*Backend)(nil)
	_ compute.ErrResetter = (*Backend)(nil)
)
