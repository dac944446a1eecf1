package cuda

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/cuda/kernels"
)

// Shape says how many blocks a kernel launch takes.
type Shape struct {
	// Rows: one block of kernels.BlockSize threads per row (the row
	// kernels of the table).
	Rows int
	// Elems: enough blocks of kernels.BlockSize threads to cover Elems
	// threads (a thread per column, or a grid-stride loop over Elems
	// values, capped at gridStrideBlocksPerSM blocks per multiprocessor).
	Elems int
}

// gridStrideBlocksPerSM caps the grid of the grid-stride kernels: enough
// blocks to fill every multiprocessor several times over, few enough that
// each thread handles several elements.
const gridStrideBlocksPerSM = 32

// grid returns the blocks of a launch of k with shape s on a GPU with sms
// multiprocessors, or why the shape does not fit the kernel.
func grid(k kernels.Kernel, s Shape, sms int) (uint32, error) {
	switch {
	case k.RowBlocks && s.Rows > 0 && s.Elems == 0:
		if s.Rows > 1<<31-1 {
			return 0, fmt.Errorf("cuda: kernel %s: %d rows exceed the grid", k.Name, s.Rows)
		}
		return uint32(s.Rows), nil
	case !k.RowBlocks && s.Elems > 0 && s.Rows == 0:
		blocks := (s.Elems + kernels.BlockSize - 1) / kernels.BlockSize
		if limit := max(sms, 1) * gridStrideBlocksPerSM; blocks > limit && gridStride(k) {
			blocks = limit
		}
		if blocks > 1<<31-1 {
			return 0, fmt.Errorf("cuda: kernel %s: %d threads exceed the grid", k.Name, s.Elems)
		}
		return uint32(blocks), nil
	case s.Rows == 0 && s.Elems == 0:
		return 0, nil // nothing to do
	}
	if k.RowBlocks {
		return 0, fmt.Errorf("cuda: kernel %s runs one block per row: launch it with Shape{Rows: n}", k.Name)
	}
	return 0, fmt.Errorf("cuda: kernel %s runs a thread per element or column: launch it with Shape{Elems: n}", k.Name)
}

// columnKernels have one thread per column and no grid-stride loop: their
// grids must cover every column.
var columnKernels = map[string]bool{
	"column_sums_f32": true, "layernorm_param_grad_f32": true, "embed_sum_bwd_f32": true, "scatter_rows_f32": true,
}

func gridStride(k kernels.Kernel) bool { return !columnKernels[k.Name] }

// checkArgs reports whether args fit k's parameters.
func checkArgs(k kernels.Kernel, args *cudalib.Args) error {
	if got, want := args.Kinds(), string(k.Params); got != want {
		return fmt.Errorf("cuda: kernel %s takes parameters %q (p pointer, i int, l long long, u unsigned long long, f float, d double), given %q", k.Name, want, got)
	}
	return nil
}

// Launch queues kernel name (an entry of kernels.Kernels) with shape s and
// args, after checking that the kernel exists and args match its
// parameters.
func (q *Queue) Launch(name string, s Shape, args *cudalib.Args) error {
	kn, ok := q.d.kernels[name]
	if !ok {
		return fmt.Errorf("cuda: no kernel %q in the kernel table", name)
	}
	if err := checkArgs(kn.k, args); err != nil {
		return err
	}
	blocks, err := grid(kn.k, s, q.d.sms)
	if err != nil || blocks == 0 {
		return err
	}
	return q.locked(func() error {
		return q.d.drv.Launch(kn.fn, cudalib.Dim3{X: blocks, Y: 1, Z: 1}, cudalib.Dim3{X: kernels.BlockSize, Y: 1, Z: 1}, 0, q.stream, args)
	})
}
