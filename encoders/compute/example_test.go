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
