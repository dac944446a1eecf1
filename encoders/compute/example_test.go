package compute_test

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute"
)

// A forward step on a backend: upload once, run operations on the
// backend's tensors, download the result.
func ExampleCPU() {
	be := compute.CPU()
	x := be.Upload([]float32{1, 2, 3, 4})                 // [2, 2]
	w := be.Upload([]float32{1, 0, -1, 1})                // [out 2, in 2]
	y := be.Alloc(4)                                      // [2, 2]
	be.Gemm(false, true, 2, 2, 2, 1, x, 2, w, 2, 0, y, 2) // y = x·wᵀ
	be.BiasAct(y, be.Upload([]float32{0, -2}), 2, compute.ReLU)
	out := make([]float32, 4)
	be.Download(out, y)
	fmt.Println(out)
	// Output: [1 0 3 0]
}

// A training step's pieces on a TrainBackend: a LayerNorm that saves its
// statistics, then its backward pass, whose γ and β gradients accumulate
// (over two values a LayerNorm outputs ±γ whatever x is, so dx is 0).
func ExampleTraining() {
	tb, err := compute.Training(compute.CPU())
	if err != nil {
		fmt.Println(err)
		return
	}
	x := tb.Upload([]float32{1, 3}) // one row of width 2: x̂ = (−1, 1)
	gamma, beta := tb.Upload([]float32{2, 2}), tb.Upload([]float32{0, 0})
	y, xhat, rstd := tb.Alloc(2), tb.Alloc(2), tb.Alloc(1)
	tb.LayerNormSave(y, x, gamma, beta, 2, 0, xhat, rstd)
	dgamma, dbeta, dx := tb.Alloc(2), tb.Alloc(2), tb.Alloc(2)
	tb.LayerNormBackward(dx, dgamma, dbeta, tb.Upload([]float32{1, 0}), xhat, rstd, gamma, 2)
	out := make([]float32, 2)
	for _, t := range []compute.Tensor{y, dgamma, dbeta, dx} {
		tb.Download(out, t)
		fmt.Println(out)
	}
	// Output:
	// [-2 2]
	// [-1 0]
	// [1 0]
	// [0 0]
}
