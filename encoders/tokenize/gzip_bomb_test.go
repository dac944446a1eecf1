package tokenize

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestGzipBombFailsFastAndSmall: a vocab.txt.gz of about 32 KiB that
// inflates to 32 MiB (within MaxModelFileBytes) is refused once it passes
// MaxGzipRatio times its compressed size, after a small allocation: its
// inflated size is counted before any buffer for it is allocated (about
// 56 KB allocated in all, race detector or not).
func TestGzipBombFailsFastAndSmall(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(128 << 20))
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "vocab.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	line := []byte(strings.Repeat("a", 1023) + "\n")
	for range 32 << 10 {
		zw.Write(line)
	}
	zw.Close()
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = LoadBERT(dir)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "inflated") {
		t.Fatalf("error %v, want the gzip ratio bound", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("%d KiB allocated before failing, want at most 1 MiB", alloc>>10)
	}
}
