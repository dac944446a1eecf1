//go:build !amd64

package sgemm

// defaultKernel is the portable micro-kernel on architectures without an
// assembly one.
var defaultKernel = goKernel
