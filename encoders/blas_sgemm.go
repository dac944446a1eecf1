//go:build !openblas

package encoders

import (
	"github.com/storyeval/storyeval/encoders/internal/sgemm"
	"gorgonia.org/tensor"
)

// Without the openblas tag, gorgonia.org/tensor's BLAS is gonum's pure-Go
// implementation with its Sgemm replaced by encoders/internal/sgemm: packed,
// cache-blocked, parallel, with AVX-512/AVX2 kernels in Go assembly (no cgo)
// and a portable Go kernel elsewhere. Every matrix product of the encoders
// goes through it; results do not depend on GOMAXPROCS.
func init() {
	tensor.Use(sgemm.Implementation{})
}

// BLASName names the BLAS the encoders use in this build.
const BLASName = "sgemm"
