//go:build !openblas

package compute

import (
	"github.com/storyeval/storyeval/encoders/internal/sgemm"
)

// DefaultBLAS returns the BLAS of this build: gonum's pure-Go implementation
// with its Sgemm replaced by encoders/internal/sgemm — packed,
// cache-blocked, parallel, with AVX-512/AVX2 kernels in Go assembly (no
// cgo) and a portable Go kernel elsewhere. Its results do not depend on
// GOMAXPROCS. Build with the openblas tag for OpenBLAS instead.
func DefaultBLAS() BLAS { return sgemm.Implementation{} }

// BLASName names the BLAS DefaultBLAS returns in this build.
const BLASName = "sgemm"
