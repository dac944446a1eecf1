package embcache

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkOpen opens and closes a store of ViT-B/16-sized vectors
// (768 floats) with the default, fast Open and with Options.Verify (the
// check every Open ran before). STORYEVAL_CACHE_OPEN_BENCH_MIB sets the
// store's size (default 64; the figure in the commit message is 1024), and
// STORYEVAL_CACHE_OPEN_BENCH_FILE keeps the generated store at that path
// between runs.
//
// At 1 GiB (Intel(R) Xeon(R) Processor, 2 cores, load 16-29, file in the
// page cache, three runs of -benchtime 3x each): fast 0.7-3.3 ms, verify
// 6.7-12.6 s; the code before this change opened in 5.3-9.6 s by default
// (the full check) and 2.5-25 ms with SkipVerify.
func BenchmarkOpen(b *testing.B) {
	mib := 64
	if v := os.Getenv("STORYEVAL_CACHE_OPEN_BENCH_MIB"); v != "" {
		var err error
		if mib, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	path := os.Getenv("STORYEVAL_CACHE_OPEN_BENCH_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), FileName)
	}
	if _, err := os.Stat(path); err != nil {
		writeBenchStore(b, path, int64(mib)<<20)
	}
	for _, bc := range []struct {
		name string
		opts Options
	}{{"fast", Options{}}, {"verify", Options{Verify: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				s, err := Open(path, bc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if s.Rebuilt() != "" {
					b.Fatal(s.Rebuilt())
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			fi, _ := os.Stat(path)
			b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
		})
	}
}

// writeBenchStore fills a store at path with 768-float vectors until the
// file reaches size bytes, 1000 vectors a transaction.
func writeBenchStore(b *testing.B, path string, size int64) {
	s, err := Open(path, Options{MaxBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := 0; ; i += 1000 {
		ks, vs := make([]Key, 1000), make([][]float32, 1000)
		for j := range ks {
			ks[j], vs[j] = ImageKey(ImageInput{Region: strconv.Itoa(i + j)}), vec(i+j, 768)
		}
		if err := s.PutMany(ks, vs); err != nil {
			b.Fatal(err)
		}
		st, err := s.Stats()
		if err != nil {
			b.Fatal(err)
		}
		if st.FileBytes >= size {
			return
		}
	}
}
