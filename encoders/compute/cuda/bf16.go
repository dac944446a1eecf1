package cuda

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// GemmBF16 queues a row-major product (one, not batched) of float32
// matrices that cuBLAS computes on bfloat16 tensor cores
// (CUBLAS_COMPUTE_32F_FAST_16BF: operands rounded to bfloat16 inside the
// product, float32 accumulation and output): the BF16 mode.
func (q *Queue) GemmBF16(g cudalib.Gemm) error {
	if g.Batch > 1 {
		return fmt.Errorf("cuda: GemmBF16 multiplies one pair of matrices, not a batch of %d", g.Batch)
	}
	return q.locked(func() error { return q.d.blas.GemmEx(q.handle, g, cudalib.Float32, cudalib.Compute32FFastBF16) })
}
