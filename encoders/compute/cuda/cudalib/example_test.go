package cudalib_test

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// The PTX architecture for an H100 (compute capability 9.0) from the
// architectures an NVRTC of CUDA 13 compiles for.
func ExampleChooseArch() {
	arch, err := cudalib.ChooseArch([]int{75, 80, 86, 87, 89, 90, 100, 120}, 90)
	fmt.Println(arch, err)
	// Output: 90 <nil>
}

// The file names tried for each library, preferred first.
func ExampleLibrary_FileNames() {
	for _, l := range cudalib.Libraries {
		fmt.Println(l, l.FileNames())
	}
	// Output:
	// CUDA driver [libcuda.so.1]
	// cuBLAS [libcublas.so.13 libcublas.so.12]
	// NVRTC [libnvrtc.so.13 libnvrtc.so.12 libnvrtc.so.11.2]
}
