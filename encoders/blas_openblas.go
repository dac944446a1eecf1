//go:build openblas

package encoders

import (
	"gonum.org/v1/netlib/blas/netlib"
	"gorgonia.org/tensor"
)

// With the openblas build tag, gorgonia.org/tensor's BLAS — and so every
// matrix product of the encoders — is OpenBLAS through gonum's cgo netlib
// bindings (SPEC §8.5). Build with Debian's libopenblas-dev and
// CGO_LDFLAGS=-lopenblas:
//
//	CGO_LDFLAGS=-lopenblas go test -tags openblas ./encoders/
//
// Debian's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its Haswell kernels on the
// AVX-512 Xeons this project is measured on (85–95 GFLOP/s for a
// 1024×768·768×3072 product); exporting OPENBLAS_CORETYPE=SkylakeX before
// the program starts selects the AVX-512 kernels.
//
// tensor.Use is gorgonia's backend switch; a program may also call it
// itself, for example to select another BLAS.
func init() {
	tensor.Use(netlib.Implementation{})
}

// BLASName names the BLAS the encoders use in this build.
const BLASName = "openblas"
