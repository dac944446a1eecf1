package sgemm

// The assembly takes its operands as *float32, not uintptr, so the garbage
// collector sees them during the call; the kernels are leaf functions
// (NOSPLIT, no frame) that keep no pointer after returning, hence
// go:noescape. They read and write only the elements kernelGo's slices
// span, which the callers bounds-check.

// kernelAVX2 is the 6×16 kernelFunc in AVX2/FMA assembly.
//
//go:noescape
func kernelAVX2(k int, a, b, c *float32, ldc int)

// kernelAVX512 is the 12×32 kernelFunc in AVX-512F assembly.
//
//go:noescape
func kernelAVX512(k int, a, b, c *float32, ldc int)

// transpose8x8AVX sets dst[c*ldd+r] = src[r*lds+c] for r, c in [0, 8).
//
//go:noescape
func transpose8x8AVX(src *float32, lds int, dst *float32, ldd int)

var (
	avx2Kernel   = microKernel{name: "avx2", fn: kernelAVX2, mr: 6, nr: 16, transpose8x8: transpose8x8AVX}
	avx512Kernel = microKernel{name: "avx512", fn: kernelAVX512, mr: 12, nr: 32, transpose8x8: transpose8x8AVX}
)

// defaultKernel is the fastest micro-kernel this CPU runs. It is set once
// at package initialisation and never changed.
var defaultKernel = selectKernel()

func selectKernel() microKernel {
	switch avx2FMA, avx512 := cpuFeatures(); {
	case avx512:
		return avx512Kernel
	case avx2FMA:
		return avx2Kernel
	}
	return goKernel
}
