// Package cuda runs the encoders on an NVIDIA GPU, with nothing needed at
// build time: the CUDA driver, cuBLAS and NVRTC are loaded when a device is
// opened (package cudalib, through purego: no cgo), and the backend's own
// kernels are CUDA C sources compiled then by NVRTC for the GPU at hand
// (package kernels). A binary built with CGO_ENABLED=0 on a machine without
// CUDA runs on a GPU machine unchanged.
//
// Discover reports the libraries and GPUs found and why one is unusable;
// `storyeval devices` prints that report. Open brings up one GPU: its
// primary context, a non-blocking stream, a cuBLAS handle in float32 mode
// (TF32 off, so results match the CPU path within the golden tests'
// tolerances; Options.TF32 is the faster mode) and the compiled kernels.
// When the GPU cannot be used, Open (and Report.Usable) fails with one line
// naming what is missing, e.g. "cuda: CUDA driver not found (libcuda.so.1)
// in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders
// or by the dynamic loader".
//
// Libraries are searched in Options.Libraries.Paths, then the folders of
// the STORYEVAL_CUDA_LIB_PATH environment variable, then the usual system
// locations (see cudalib).
//
// Backend is compute.Backend on a Device: pass it to the encoders
// (encoders.Options{Backend: b}) and the model's weights are uploaded once,
// its activations stay on the GPU between operations, and only the outputs
// come back. Its temporaries are recycled through a pool (cuMemAlloc is
// slow and cuMemFree waits for the whole GPU). compute.Backend's
// operations return no error, so Backend keeps the first failure (out of
// memory, say: one line naming the GPU, the operation and the size) and
// does nothing after it; the encoders check it (compute.Err) after every
// forward pass and return it naming the model and the batch; an
// out-of-memory failure matches compute.ErrOutOfMemory, and after
// ResetErr the caller may retry with a smaller batch (BatchPlan sizes
// batches to free memory).
//
// Backend is also a compute.TrainBackend, so the trainers run on it
// (their options' Backend): the forward variants that save for the
// backward pass, the backward operations, the losses and Adam, each
// following the CPU backend's arithmetic (see package kernels; the
// attention backward uses the saved probabilities and regenerates the
// dropout masks from their counter hash).
//
// Device is the host side underneath: memory, page-locked host buffers,
// copies, kernel launches checked against the kernel table, row-major
// GEMMs (float32; TF32 or BF16 tensor cores as options) and a fused
// attention (one batched GEMM for all scores, a masked softmax kernel, one
// for the context).
package cuda
