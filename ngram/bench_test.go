package ngram

import (
	"sync"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchLoop runs f b.N times and also reports CPU milliseconds per
// operation, which stay meaningful when other work shares the machine and
// wall times do not.
func benchLoop(b *testing.B, f func()) {
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(n), "cpu-ms/op")
}

// The benchmark corpus: make_synth.py captions_small.json 5000 5 --seed 1,
// the corpus the reference tools were timed on (synth_5000x5.timings.json:
// BLEU 0.8 s, ROUGE-L 0.8 s, CIDEr 4.6 s, PTB tokenization 2.0 s,
// SacreBLEU 2.4 s on this machine). Run:
//
//	go test -run=^$ -bench=Synth5000 -benchmem ./ngram/
var synth5000 = sync.OnceValues(func() (*Corpus, *Corpus) {
	var in caseFile
	readGzipJSON(&testing.B{}, synth5000File, &in)
	c, err := NewCorpus(in.Cands, in.Refs)
	if err != nil {
		panic(err)
	}
	return c, c.Tokenized()
})

func BenchmarkSynth5000PTBTokenize(b *testing.B) {
	raw, _ := synth5000()
	benchLoop(b, func() { raw.Tokenized() })
}

// uncached returns a copy of c without its split and interned tokens, so
// that a benchmark of BLEU or CIDEr-D includes building them.
func uncached(c *Corpus) *Corpus { return &Corpus{ids: c.ids, cands: c.cands, refs: c.refs} }

func BenchmarkSynth5000BLEU(b *testing.B) {
	_, tok := synth5000()
	benchLoop(b, func() { BLEU(uncached(tok)) })
}

func BenchmarkSynth5000ROUGEL(b *testing.B) {
	_, tok := synth5000()
	benchLoop(b, func() { ROUGEL(tok) })
}

func BenchmarkSynth5000CIDErD(b *testing.B) {
	_, tok := synth5000()
	benchLoop(b, func() { CIDErD(uncached(tok)) })
}

func BenchmarkSynth5000SacreBLEU(b *testing.B) {
	raw, _ := synth5000()
	benchLoop(b, func() {
		if _, err := SacreBLEU(raw, SacreBLEUOptions{}); err != nil {
			b.Fatal(err)
		}
	})
}

// TestSynth5000CorpusMatchesReference checks the benchmark corpus against the
// corpus scores the reference toolkit reported on it (ptb mode), so the
// benchmark times the same computation.
func TestSynth5000CorpusMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the 5000-item corpus; the small golden cases still run")
	}
	var timings struct {
		Runs map[string][]struct {
			Modes map[string]struct {
				Corpus map[string]float64 `json:"corpus"`
			} `json:"modes"`
		} `json:"runs"`
	}
	readGzipJSON(t, "synth_5000x5.timings.json.gz", &timings)
	raw, tok := synth5000()
	for mode, c := range map[string]*Corpus{"raw": raw, "ptb": tok} {
		want := timings.Runs["coco"][0].Modes[mode].Corpus
		got, _ := cocoScores(t, c)
		for _, k := range cocoMetricKeys {
			if !relClose(got[k], want[k], 1e-12) {
				t.Errorf("%s corpus %s = %.17g, want %.17g", mode, k, got[k], want[k])
			}
		}
	}
}
