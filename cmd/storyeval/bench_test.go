package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// writeRandomCorpus writes an ngram corpus of random text of about size
// bytes: words of 2 to 9 random letters from a 200,000-word vocabulary,
// captions of 8 to 20 words, five references per item. Nearly every bigram
// and longer n-gram is unique, the worst case for the n-gram tables.
func writeRandomCorpus(tb testing.TB, path string, size int, seed uint64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	vocab := make([]string, 200_000)
	for i := range vocab {
		w := make([]byte, 2+rng.IntN(8))
		for j := range w {
			w[j] = byte('a' + rng.IntN(26))
		}
		vocab[i] = string(w)
	}
	sentence := func(buf []byte) []byte {
		for j := range 8 + rng.IntN(13) {
			if j > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, vocab[rng.IntN(len(vocab))]...)
		}
		return buf
	}
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	// Candidates first, then the references of the same ids, each section
	// generated from the same stream so that ids line up.
	var cands, refs []byte
	cands = append(cands, `{"cands": {`...)
	refs = append(refs, `, "refs": {`...)
	for i := 0; len(cands)+len(refs) < size; i++ {
		if i > 0 {
			cands = append(cands, ", "...)
			refs = append(refs, ", "...)
		}
		id := fmt.Sprintf(`"r%07d": `, i)
		cands = append(cands, id...)
		cands = append(cands, '"')
		cands = append(sentence(cands), '"')
		refs = append(refs, id...)
		refs = append(refs, '[')
		for r := range 5 {
			if r > 0 {
				refs = append(refs, ", "...)
			}
			refs = append(refs, '"')
			refs = append(sentence(refs), '"')
		}
		refs = append(refs, ']')
	}
	w.Write(cands)
	w.WriteString("}")
	w.Write(refs)
	w.WriteString("}}\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// gunzipFile writes the decompressed copy of a .gz file to dst.
func gunzipFile(tb testing.TB, src, dst string) {
	tb.Helper()
	f, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkNgramCommand times whole storyeval ngram processes (start, JSON
// in, scoring, JSON out) and reports their peak RSS, on the 5000×5 corpus
// the reference tools were timed on (ngram/testdata/synth_5000x5.timings.json.gz)
// and on generated 11 MB and 50 MB random-text corpora:
//
//	go test -run='^$' -bench=NgramCommand -benchtime=3x ./cmd/storyeval/
func BenchmarkNgramCommand(b *testing.B) {
	dir := b.TempDir()
	synth := filepath.Join(dir, "synth_5000x5.json")
	gunzipFile(b, "../../testdata/ngram/synth_5000x5_seed1.json.gz", synth)
	random11 := filepath.Join(dir, "random11MB.json")
	writeRandomCorpus(b, random11, 11<<20, 1)
	random := filepath.Join(dir, "random50MB.json")
	writeRandomCorpus(b, random, 50<<20, 1)
	for _, corpus := range []struct{ name, path string }{{"synth5000x5", synth}, {"random11MB", random11}, {"random50MB", random}} {
		st, err := os.Stat(corpus.path)
		if err != nil {
			b.Fatal(err)
		}
		for _, run := range []struct {
			name string
			args []string
		}{
			{"all", nil}, // PTB tokenization, every metric
			{"cider", []string{"-tokenize", "none", "-metrics", "cider"}},
			{"bleu,rouge,cider", []string{"-tokenize", "none", "-metrics", "bleu,rouge,cider"}},
		} {
			b.Run(corpus.name+"/"+run.name, func(b *testing.B) {
				args := append(append([]string{"ngram"}, run.args...), "-in", corpus.path)
				var peak int64
				for b.Loop() {
					r := runProcess(b, nil, args...)
					if r.code != 0 {
						b.Fatalf("exit %d: %s", r.code, r.stderr)
					}
					var out struct {
						Corpus map[string]float64 `json:"corpus"`
					}
					if err := json.Unmarshal(r.stdout, &out); err != nil || len(out.Corpus) == 0 {
						b.Fatalf("output: %v", err)
					}
					peak = max(peak, r.peakRSS)
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
				b.ReportMetric(float64(peak)/float64(st.Size()), "RSS/input")
			})
		}
	}
}
