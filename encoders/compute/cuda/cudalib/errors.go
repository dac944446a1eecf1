package cudalib

import "fmt"

// Error is a failed call into a CUDA library: one line naming the library's
// function and the error, e.g.
// "cuda: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
type Error struct {
	Library Library
	Func    string // the C function, e.g. "cuMemAlloc_v2"
	Code    int    // CUresult, cublasStatus_t or nvrtcResult
	Name    string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Detail  string // the library's description, if it gave one
}

// Error implements error.
func (e *Error) Error() string {
	s := fmt.Sprintf("cuda: %s: %s", e.Func, e.Name)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// OutOfMemory reports whether the call failed for lack of device memory
// (the driver's or cuBLAS's out-of-memory code), which a caller can retry
// with a smaller batch.
func (e *Error) OutOfMemory() bool {
	switch e.Library {
	case Driver:
		return e.Code == cudaErrorOutOfMemory
	case CuBLAS:
		return e.Code == cublasStatusAllocFailed
	case NVRTC:
		return e.Code == 1 // NVRTC_ERROR_OUT_OF_MEMORY
	}
	return false
}

const (
	cudaErrorOutOfMemory    = 2
	cublasStatusAllocFailed = 3
)

// driverErrorNames are the CUresult names of cuda.h used when the driver
// cannot name a code itself (cuGetErrorName is the first choice).
var driverErrorNames = map[int]string{
	0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY",
	3: "CUDA_ERROR_NOT_INITIALIZED", 4: "CUDA_ERROR_DEINITIALIZED", 34: "CUDA_ERROR_STUB_LIBRARY",
	35: "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", 46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE", 101: "CUDA_ERROR_INVALID_DEVICE", 200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT", 209: "CUDA_ERROR_NO_BINARY_FOR_GPU", 218: "CUDA_ERROR_INVALID_PTX",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 400: "CUDA_ERROR_INVALID_HANDLE", 500: "CUDA_ERROR_NOT_FOUND",
	600: "CUDA_ERROR_NOT_READY", 700: "CUDA_ERROR_ILLEGAL_ADDRESS", 701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT", 719: "CUDA_ERROR_LAUNCH_FAILED", 999: "CUDA_ERROR_UNKNOWN",
}

// cublasStatusNames are cublasStatus_t's names (cublas_api.h); cuBLAS has
// no function that names them.
var cublasStatusNames = map[int]string{
	0: "CUBLAS_STATUS_SUCCESS", 1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED",
	7: "CUBLAS_STATUS_INVALID_VALUE", 8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR",
	13: "CUBLAS_STATUS_EXECUTION_FAILED", 14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED",
	16: "CUBLAS_STATUS_LICENSE_ERROR",
}

// nvrtcResultNames are nvrtcResult's names (nvrtc.h), used when
// nvrtcGetErrorString is not at hand.
var nvrtcResultNames = map[int]string{
	0: "NVRTC_SUCCESS", 1: "NVRTC_ERROR_OUT_OF_MEMORY", 2: "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
	3: "NVRTC_ERROR_INVALID_INPUT", 4: "NVRTC_ERROR_INVALID_PROGRAM", 5: "NVRTC_ERROR_INVALID_OPTION",
	6: "NVRTC_ERROR_COMPILATION", 7: "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
	8: "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION", 9: "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
	10: "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID", 11: "NVRTC_ERROR_INTERNAL_ERROR",
}

// codeName returns the name of a library's status code from the tables
// above, or a numbered placeholder for a code they lack.
func codeName(lib Library, code int) string {
	var names map[int]string
	switch lib {
	case Driver:
		names = driverErrorNames
	case CuBLAS:
		names = cublasStatusNames
	case NVRTC:
		names = nvrtcResultNames
	}
	if n, ok := names[code]; ok {
		return n
	}
	return fmt.Sprintf("%s error %d", lib, code)
}
