//go:build !unix

package train

// cpuSeconds is unavailable here; the CPU-time metrics read 0.
func cpuSeconds() float64 { return 0 }
