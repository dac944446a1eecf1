// Package sgemm is a pure-Go (plus Go assembly) single-precision general
// matrix multiply for the neural encoders.
//
// Implementation embeds gonum's pure-Go BLAS and overrides only Sgemm with a
// cache-blocked, packed GotoBLAS/BLIS-style algorithm. Its register
// micro-kernel is chosen once, from CPUID: 12×32 in AVX-512F assembly, else
// 6×16 in AVX2/FMA assembly, else (and off amd64) 6×16 in portable Go.
// Packing handles the transposes, with an AVX 8×8 register transpose where
// the source is strided.
//
// Large products are shared between runtime.GOMAXPROCS goroutines: both
// operands are packed once, then the goroutines take 96×256 pieces of C in
// turn. Small ones (m·n·k < 2²³, such as the per-attention-head products
// that callers already run concurrently) stay on the calling goroutine, so
// that concurrent callers do not oversubscribe the CPUs. Every element of C
// is summed in the same order whatever the number of goroutines, so results
// are bit-for-bit independent of GOMAXPROCS; they differ from gonum's
// Sgemm only by float32 rounding (a different summation order, and FMA).
//
// Select it for gorgonia.org/tensor with
//
//	tensor.Use(sgemm.Implementation{})
package sgemm
