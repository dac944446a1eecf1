package kernels_test

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/kernels"
)

// The NVRTC options for an H100 and the parameters of one kernel.
func ExampleOptions() {
	fmt.Println(kernels.Options(90))
	for _, k := range kernels.Kernels {
		if k.Name == "layernorm_fwd_f32" {
			fmt.Printf("%s(%s), one block of %d threads per row: %v\n", k.Name, string(k.Params), kernels.BlockSize, k.RowBlocks)
		}
	}
	// Output:
	// [--gpu-architecture=compute_90 --fmad=false --std=c++17]
	// layernorm_fwd_f32(ppppppiid), one block of 256 threads per row: true
}
