//go:build !amd64

package sgemm

// availableKernels returns the micro-kernels this CPU runs.
func availableKernels() []microKernel { return []microKernel{goKernel} }
