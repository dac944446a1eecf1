package rovist

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

// benchStories returns the 5,555 golden stories (5,055 VIST test references
// and 500 LLaVA stories), the workload the Python reference took 3.6 s for
// (fixtures/rovist/reference_timing.json).
func benchStories(b *testing.B) []string {
	var stories []string
	for _, name := range []string{"vist_gt_test.json.gz", "vist_llava_first500.json.gz"} {
		ids, texts := storyFile(b, name)
		for _, id := range ids {
			stories = append(stories, texts[id])
		}
	}
	return stories
}

// BenchmarkNRScorer scores the 5,555 golden stories once per iteration with
// one NRScorer, as the nr subcommand does.
func BenchmarkNRScorer(b *testing.B) {
	stories := benchStories(b)
	var sc NRScorer
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for _, s := range stories {
			if _, err := sc.Score(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(stories)), "stories/op")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkNonRedundancy scores the 5,555 golden stories once per
// iteration, one NonRedundancy call each.
func BenchmarkNonRedundancy(b *testing.B) {
	stories := benchStories(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for _, s := range stories {
			if _, err := NonRedundancy(s, NROptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(stories)), "stories/op")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkNonRedundancyAll scores the 5,555 golden stories once per
// iteration with NonRedundancyAll (one NRScorer per core).
func BenchmarkNonRedundancyAll(b *testing.B) {
	stories := benchStories(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		_, errs := NonRedundancyAll(stories, NROptions{})
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(stories)), "stories/op")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
