package train

import (
	"sync"

	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/tensor"

	"github.com/storyeval/storyeval/encoders"
)

// blasOnce installs the encoders' default BLAS (the project's SGEMM, or
// OpenBLAS with the openblas tag) when the first trainer is built, unless
// the program chose one, as the encoders do before their first product: a
// training run must not change its rounding when a scorer's forward pass
// (which installs it) happens to run in between.
var blasOnce sync.Once

func ensureBLAS() {
	blasOnce.Do(func() {
		if _, untouched := tensor.WhichBLAS().(gonum.Implementation); untouched {
			encoders.UseDefaultBLAS()
		}
	})
}
