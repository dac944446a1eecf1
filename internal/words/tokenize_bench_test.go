package words

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

// BenchmarkTokenize runs nltk.word_tokenize on each of the 5,555 golden
// stories once per iteration and reports tokens per second of CPU time.
func BenchmarkTokenize(b *testing.B) {
	stories := loadGolden(b)
	tokens := 0
	for _, g := range stories {
		tokens += len(Tokenize(g.Text))
	}
	var tk Tokenizer
	var dst []string
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for _, g := range stories {
			dst = tk.Tokenize(dst[:0], g.Text)
		}
	}
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(tokens)*float64(b.N)/cpu.Seconds(), "tokens/cpu-s")
}

// BenchmarkTokenizeSentence runs NLTKWordTokenizer alone on the 28,359
// golden sentences once per iteration.
func BenchmarkTokenizeSentence(b *testing.B) {
	stories := loadGolden(b)
	var sents []string
	for _, g := range stories {
		sents = append(sents, g.Sentences...)
	}
	var tk Tokenizer
	var dst []string
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for _, s := range sents {
			dst = tk.TokenizeSentence(dst[:0], s)
		}
	}
	b.ReportMetric(float64(len(sents)), "sentences/op")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
