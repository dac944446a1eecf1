//go:build !openblas

package encoders

// BLASName names the BLAS the encoders use in this build: gonum's pure-Go
// implementation, gorgonia.org/tensor's default. Build with the openblas tag
// for OpenBLAS (blas_openblas.go).
const BLASName = "gonum"
