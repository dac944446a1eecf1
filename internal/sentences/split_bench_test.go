package sentences

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the user plus system CPU time of the process so far: on a
// shared, loaded machine it measures the work done better than wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSplit splits the 5,555 golden stories once per iteration.
func BenchmarkSplit(b *testing.B) {
	stories := loadGolden(b)
	bytes := 0
	for _, g := range stories {
		bytes += len(g.Text)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for _, g := range stories {
			Split(g.Text)
		}
	}
	b.ReportMetric(float64(len(stories)), "stories/op")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
