// Package sgemm is a pure-Go (plus Go assembly) single-precision general
// matrix multiply for the neural encoders.
//
// Implementation embeds gonum's pure-Go BLAS and overrides only Sgemm with a
// cache-blocked, packed GotoBLAS/BLIS-style algorithm whose 6×16 register
// micro-kernel uses AVX2 and FMA on amd64 CPUs that have them; elsewhere a
// portable Go micro-kernel is used. Large products are split over
// runtime.GOMAXPROCS goroutines; small ones (such as per-attention-head
// products that callers already run concurrently) stay on the calling
// goroutine so that concurrent callers do not oversubscribe the CPUs.
//
// Select it for gorgonia.org/tensor with
//
//	tensor.Use(sgemm.Implementation{})
package sgemm
