package sgemm

// kernelAVX2 is the 6×16 micro-kernel in AVX2/FMA assembly; see
// microKernel for its contract.
//
//go:noescape
func kernelAVX2(k int, a, b, c *float32, ldc int)

// cpuid executes the CPUID instruction.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads the extended control register XCR0.
func xgetbv() (eax, edx uint32)

// hasAVX2FMA reports whether the CPU has AVX2 and FMA and the operating
// system saves the YMM registers on context switches.
func hasAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}

// defaultKernel is the fastest micro-kernel this CPU runs. It is set once
// at package initialisation and never changed.
var defaultKernel = selectKernel()

func selectKernel() microKernel {
	if hasAVX2FMA() {
		return kernelAVX2
	}
	return kernelGo
}
