package cudalib

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	for _, c := range []struct {
		err  *Error
		want string
		oom  bool
	}{
		{&Error{Library: Driver, Func: "cuMemAlloc_v2", Code: 2, Name: codeName(Driver, 2), Detail: "out of memory"},
			"cuda: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)", true},
		{&Error{Library: CuBLAS, Func: "cublasSgemm_v2", Code: 3, Name: codeName(CuBLAS, 3)},
			"cuda: cublasSgemm_v2: CUBLAS_STATUS_ALLOC_FAILED", true},
		{&Error{Library: CuBLAS, Func: "cublasGemmEx", Code: 15, Name: codeName(CuBLAS, 15)},
			"cuda: cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED", false},
		{&Error{Library: Driver, Func: "cuInit", Code: 100, Name: codeName(Driver, 100)},
			"cuda: cuInit: CUDA_ERROR_NO_DEVICE", false},
		{&Error{Library: NVRTC, Func: "nvrtcCompileProgram", Code: 6, Name: codeName(NVRTC, 6)},
			"cuda: nvrtcCompileProgram: NVRTC_ERROR_COMPILATION", false},
		{&Error{Library: Driver, Func: "cuX", Code: 12345, Name: codeName(Driver, 12345)},
			"cuda: cuX: CUDA driver error 12345", false},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
		var e *Error
		if !errors.As(fmt.Errorf("model x, batch 64: %w", c.err), &e) || e.OutOfMemory() != c.oom {
			t.Errorf("%q: OutOfMemory through a wrapped error = %v, want %v", c.want, e != nil && e.OutOfMemory(), c.oom)
		}
	}
}
