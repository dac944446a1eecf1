//go:build unix

package stylem

import "syscall"

// processCPUSeconds returns the user+system CPU time of the process, so
// that benchmarks on a shared machine can report CPU cost next to wall time.
func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
