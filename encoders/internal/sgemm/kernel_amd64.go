package sgemm

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

// cpuid executes the CPUID instruction.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads the extended control register XCR0.
func xgetbv() (eax, edx uint32)

var (
	avx2Kernel   = microKernel{name: "avx2", fn: kernelAVX2, mr: 6, nr: 16, transpose8x8: transpose8x8AVX}
	avx512Kernel = microKernel{name: "avx512", fn: kernelAVX512, mr: 12, nr: 32, transpose8x8: transpose8x8AVX}
)

// cpuFeatures reports whether the CPU has AVX2 with FMA and AVX-512F, each
// only if the operating system also saves the registers they use.
func cpuFeatures() (avx2FMA, avx512 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false, false
	}
	xcr0, _ := xgetbv()
	_, ebx7, _, _ := cpuid(7, 0)
	const (
		avx2     = 1 << 5
		avx512f  = 1 << 16
		ymmState = 1<<1 | 1<<2                   // XMM, YMM
		zmmState = ymmState | 1<<5 | 1<<6 | 1<<7 // opmask, ZMM0-15 upper halves, ZMM16-31
	)
	avx2FMA = ebx7&avx2 != 0 && xcr0&ymmState == ymmState
	avx512 = avx2FMA && ebx7&avx512f != 0 && xcr0&zmmState == zmmState
	return avx2FMA, avx512
}

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
