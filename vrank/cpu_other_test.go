//go:build !unix

package vrank

// cpuSeconds is unavailable here; the CPU-time metrics read 0.
func cpuSeconds() float64 { return 0 }
