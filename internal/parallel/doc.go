// Package parallel is the one home of the bounded fan-out loops the metrics
// and encoders use: split [0, n) into contiguous chunks, run one goroutine
// per chunk (at most GOMAXPROCS, fewer for small n), wait. Results never
// depend on the number of workers, because every caller writes each index's
// result into its own slot.
package parallel
