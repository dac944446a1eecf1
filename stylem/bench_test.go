package stylem

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// syntheticCorpus generates n captions over nStyles styles, shaped like
// PERSONALITY-CAPTIONS: one caption per image, 5–19 words drawn from a
// Zipf-distributed 10,000-word vocabulary, a fifth of them replaced by one
// of the style's 60 words, plus sentence punctuation for the tokenizer.
func syntheticCorpus(seed uint64, n, nStyles int) []Record {
	rng := rand.New(rand.NewPCG(seed, 1))
	zipf := rand.NewZipf(rng, 1.1, 2, 9999)
	recs := make([]Record, n)
	var b strings.Builder
	for i := range recs {
		k := rng.IntN(nStyles)
		b.Reset()
		words := 5 + rng.IntN(15)
		for j := 0; j < words; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			if j == 0 {
				b.WriteString("The")
				continue
			}
			if rng.IntN(5) == 0 {
				fmt.Fprintf(&b, "s%dx%d", k, rng.IntN(60))
			} else {
				fmt.Fprintf(&b, "w%d", zipf.Uint64())
			}
			if rng.IntN(12) == 0 {
				b.WriteByte(',')
			}
		}
		b.WriteString([]string{".", "!", "?"}[rng.IntN(3)])
		recs[i] = Record{Image: fmt.Sprintf("%032x", rng.Uint64()), Style: fmt.Sprintf("Style%d", k), Captions: []string{b.String()}}
	}
	return recs
}

var (
	benchOnce  sync.Once
	benchTable *Table
	benchRecs  []Record
)

func benchSetup(b *testing.B) {
	benchOnce.Do(func() {
		benchRecs = syntheticCorpus(1, 200_000, 215)
		var err error
		if benchTable, err = Build(benchRecs, BuildOptions{}); err != nil {
			panic(err)
		}
	})
}

// BenchmarkBuild200k builds a table (PTB tokenization, reference formula)
// from 200,000 synthetic captions over 215 styles. heapMB is the live heap
// after the build, table included.
func BenchmarkBuild200k(b *testing.B) {
	recs := syntheticCorpus(1, 200_000, 215)
	b.ResetTimer()
	var tab *Table
	cpu := processCPUSeconds()
	for b.Loop() {
		var err error
		if tab, err = Build(recs, BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMB")
	b.ReportMetric(float64(tab.NumNgrams()), "ngrams")
	b.ReportMetric(float64(len(tab.entCNG)), "entries")
}

// BenchmarkBuildWrite200k compares, on the corpus of BenchmarkBuild200k,
// Build followed by WriteTo ("memory") with WriteBuild ("spill", the
// default 16 MiB chunk, runs in a temporary folder). heapMB is the live
// heap right after the table is written (the in-memory table is still
// referenced then); fileMB the table's size.
func BenchmarkBuildWrite200k(b *testing.B) {
	recs := syntheticCorpus(1, 200_000, 215)
	for _, mode := range []string{"memory", "spill"} {
		b.Run(mode, func(b *testing.B) {
			var buf bytes.Buffer
			var tab *Table
			cpu := processCPUSeconds()
			for b.Loop() {
				buf.Reset()
				var err error
				if mode == "memory" {
					if tab, err = Build(recs, BuildOptions{}); err == nil {
						_, err = tab.WriteTo(&buf)
					}
				} else {
					_, err = WriteBuild(context.Background(), &buf, recs, BuildOptions{}, SpillOptions{Dir: b.TempDir()})
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMB")
			b.ReportMetric(float64(buf.Len())/(1<<20), "fileMB")
			runtime.KeepAlive(tab)
		})
	}
}

// BenchmarkScore10k scores 10,000 held-out synthetic captions, each against
// 5 references, under all 215 styles (OnlyStyle, OnlyStyleExist and
// StyleCIDEr).
func BenchmarkScore10k(b *testing.B) {
	benchSetup(b)
	held := syntheticCorpus(2, 60_000, 215)
	type item struct {
		hyp  []string
		refs [][]string
	}
	items := make([]item, 10_000)
	for i := range items {
		items[i].hyp = Tokenize(held[i].Captions[0], nil)
		for r := 0; r < 5; r++ {
			items[i].refs = append(items[i].refs, Tokenize(held[10_000+5*i+r].Captions[0], nil))
		}
	}
	b.ResetTimer()
	var sc *Scores
	cpu := processCPUSeconds()
	for b.Loop() {
		for _, it := range items {
			var err error
			if sc, err = benchTable.Score(it.hyp, it.refs, sc); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
	if math.IsNaN(sc.StyleCIDEr[0]) {
		b.Fatal("NaN score")
	}
}

// BenchmarkReadTable reads the 200k-caption table back from its file form.
func BenchmarkReadTable(b *testing.B) {
	benchSetup(b)
	var buf bytes.Buffer
	if _, err := benchTable.WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := processCPUSeconds()
	for b.Loop() {
		if _, err := ReadTable(bytes.NewReader(buf.Bytes()), ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(buf.Len())/(1<<20), "fileMB")
}
