// Package cudalib loads the NVIDIA libraries a CUDA backend needs — the
// driver API (libcuda.so.1), cuBLAS (libcublas of CUDA 13 or 12, with its
// libcublasLt) and NVRTC (libnvrtc) — at run time, and binds the calls the
// backend makes. Nothing is needed at build time: the package has no cgo
// and no CUDA headers, so `CGO_ENABLED=0 go build` works and the same binary
// uses a GPU on a machine that has one.
//
// # Why purego and not cgo
//
// The libraries are opened with github.com/ebitengine/purego, which calls C
// functions from Go without cgo (on Linux with CGO_ENABLED=0 it brings its
// own minimal runtime glue). A cgo build that dlopens would work as well on
// a machine with a C compiler, but it would make every build of the command
// need one (cross-building the GPU check's test binaries included), and it
// gives nothing here that purego lacks: every call is a plain C function
// taking integers and pointers. gorgonia.org/cu was not taken because it
// links against one CUDA version at build time and needs the toolkit to
// build.
//
// # Where the libraries are looked for
//
// In this order, the first match of each library wins: the folders of
// Options.Paths; the folders of the STORYEVAL_CUDA_LIB_PATH environment
// variable (a list separated by ':'); CUDA_HOME and CUDA_PATH (their lib64);
// then the usual system locations (the container driver mounts
// /usr/local/nvidia/lib64, the toolkit's /usr/local/cuda/lib64, the Debian and
// Red Hat library folders, WSL's /usr/lib/wsl/lib). Within a folder a
// newer major version comes first (libcublas.so.13 before .12). When no
// folder holds a library, the system's dynamic loader is asked for it by
// name (LD_LIBRARY_PATH and the ldconfig cache), so a library installed the
// ordinary way is found as well.
//
// # Errors
//
// Every failure is one line naming the library and function, and for a
// failed call the CUDA error name, e.g.
// "cuda: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
// Such errors are *Error values, so a caller can test for out of memory
// with errors.As and retry with a smaller batch.
//
// # Concurrency
//
// The bound functions may be called from any goroutine, as the CUDA
// libraries allow; a CUDA context is current per OS thread, so a caller that
// makes driver calls locks its goroutine to a thread (runtime.LockOSThread)
// or sets the context before each sequence of calls (Driver.SetCurrent).
package cudalib
