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
// What is here: discovery, the device's host side (memory, copies, kernel
// launches checked against the kernel table, row-major GEMMs) and batch
// planning. The compute.Backend adapter over Device is the next step (it
// follows the interface of encoders/compute).
package cuda
