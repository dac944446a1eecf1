package sgemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// benchShapes are the products of the encoders: m×k·(n×k)ᵀ, B transposed
// as in the encoders' linear layers (PyTorch stores weights out×in) and in
// the attention scores Q·Kᵀ.
var benchShapes = [][3]int{
	{128, 768, 768},   // one sequence through a BERT-base projection
	{1024, 768, 768},  // 8×128 tokens through a projection
	{1024, 768, 3072}, // 8×128 tokens into the feed-forward layer
	{1024, 3072, 768}, // 8×128 tokens out of the feed-forward layer
	{128, 64, 128},    // per-head attention scores Q·Kᵀ
}

// BenchmarkSgemm reports GFLOP/s (2·m·n·k per op, wall time) and the CPU
// time per op of all threads (cpu-ms/op), since wall time on a loaded
// machine says little, next to gonum's Sgemm for the ratio.
func BenchmarkSgemm(b *testing.B) {
	type impl struct {
		name string
		impl blas.Float32Level3
	}
	impls := []impl{{"sgemm-" + defaultKernel.name, Implementation{}}}
	// The other assembly kernels this CPU runs, for comparison.
	for _, k := range availableKernels() {
		if k.name != defaultKernel.name && k.name != goKernel.name {
			impls = append(impls, impl{"sgemm-" + k.name, kernelImplementation{kern: k}})
		}
	}
	impls = append(impls, impl{"gonum", gonum.Implementation{}})
	for _, s := range benchShapes {
		m, k, n := s[0], s[1], s[2]
		rng := rand.New(rand.NewPCG(1, 1))
		a := randomMatrix(rng, m, k)
		bm := randomMatrix(rng, n, k)
		c := make([]float32, m*n)
		for _, im := range impls {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", m, k, n, im.name), func(b *testing.B) {
				cpu0 := cpuTime()
				b.ResetTimer()
				for b.Loop() {
					im.impl.Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, bm, k, 0, c, n)
				}
				b.StopTimer()
				flops := 2 * float64(m) * float64(n) * float64(k) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				if cpu := cpuTime() - cpu0; cpu >= 0 && cpu0 >= 0 {
					b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/op")
					b.ReportMetric(flops/cpu.Seconds()/1e9, "GFLOP/cpu-s")
				}
			})
		}
	}
}

// kernelImplementation is Implementation with a chosen micro-kernel.
type kernelImplementation struct {
	gonum.Implementation
	kern microKernel
}

func (ki kernelImplementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm(ki.kern, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
