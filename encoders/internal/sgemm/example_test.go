package sgemm_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/storyeval/storyeval/encoders/internal/sgemm"
)

func ExampleImplementation_Sgemm() {
	// C = A·Bᵀ for a 2×3 A and a 2×3 B, all row-major.
	a := []float32{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float32{
		1, 0, 1,
		0, 1, 0,
	}
	c := make([]float32, 2*2)
	sgemm.Implementation{}.Sgemm(blas.NoTrans, blas.Trans, 2, 2, 3, 1, a, 3, b, 3, 0, c, 2)
	fmt.Println(c)
	// Output: [4 2 10 5]
}
