package sgemm

// cpuid executes the CPUID instruction.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads the extended control register XCR0.
func xgetbv() (eax, edx uint32)

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
