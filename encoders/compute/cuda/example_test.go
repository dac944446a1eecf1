package cuda_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/imageproc"
)

// A -device flag's value: the CPU, or a GPU by index.
func ExampleParseDevice() {
	for _, s := range []string{"cpu", "cuda", "cuda:1", "gpu"} {
		isCUDA, index, err := cuda.ParseDevice(s)
		fmt.Println(s, isCUDA, index, err)
	}
	// Output:
	// cpu false 0 <nil>
	// cuda true 0 <nil>
	// cuda:1 true 1 <nil>
	// gpu false 0 device "gpu": want cpu, cuda or cuda:N (N the GPU's index, from 0)
}

// The batch that fits a GPU: 20 GiB free, the weights take 1 GiB, each
// BERT-base sequence of 512 tokens its forward pass's activations:
// 4·512·(7·768 + 3072 + 12·512) bytes; 90 % of the free memory is used.
func ExampleBatchPlan_Size() {
	plan := cuda.BatchPlan{Free: 20 << 30, Fixed: 1 << 30, PerItem: cuda.EncoderForwardBytes(512, 768, 3072, 12)}
	n, err := plan.Size(1024)
	fmt.Printf("%.1f MiB a sequence; batches of %d, %v\n", float64(plan.PerItem)/(1<<20), n, err)
	// Output:
	// 28.5 MiB a sequence; batches of 610, <nil>
}

// What `-device cuda` reports on a machine whose driver is missing.
func ExampleReport_Usable() {
	missing := errors.New("cuda: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader")
	r := cuda.Report{
		Libraries: []cuda.LibraryInfo{{Library: cudalib.Driver, Err: missing}, {Library: cudalib.CuBLAS}, {Library: cudalib.NVRTC}},
		DriverErr: missing,
	}
	fmt.Println(r.Usable(0))
	fmt.Println(r.Summary())
	// Output:
	// cuda: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader
	// no usable GPU: CUDA driver not found (libcuda.so.1) in STORYEVAL_CUDA_LIB_PATH, CUDA_HOME, CUDA_PATH and the system folders or by the dynamic loader
}

// Running an encoder on GPU 0: the model's weights go to the GPU once and
// its forward passes run there; without a usable GPU NewBackend says, in
// one line, what is missing. (Not run: its output depends on the machine.)
func ExampleNewBackend() {
	b, err := cuda.NewBackend(cuda.Options{})
	if err != nil {
		fmt.Println(err) // e.g. cuda: CUDA driver not found (libcuda.so.1) in ...
		return
	}
	defer b.Close()
	m, err := encoders.LoadViT("path/to/vit", encoders.Options{Backend: b})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := m.Forward(context.Background(), []imageproc.PixelValues{ /* preprocessed crops */ }, encoders.ForwardOptions{})
	if err == nil {
		err = b.Err() // a failed CUDA call (out of memory, say) is kept here
	}
	fmt.Println(out.LastHiddenState.Shape(), err)
}
