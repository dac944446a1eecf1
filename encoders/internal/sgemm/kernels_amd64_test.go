package sgemm

// availableKernels returns the micro-kernels this CPU runs, so that the
// tests check every one of them, not only the fastest.
func availableKernels() []microKernel {
	ks := []microKernel{goKernel}
	avx2FMA, avx512 := cpuFeatures()
	if avx2FMA {
		ks = append(ks, avx2Kernel)
	}
	if avx512 {
		ks = append(ks, avx512Kernel)
	}
	return ks
}
