//go:build !unix

package sgemm

import "time"

// cpuTime is unavailable here; benchmarks then report wall time only.
func cpuTime() time.Duration { return -1 }
