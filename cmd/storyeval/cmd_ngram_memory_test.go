package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestNgramCIDErPeakRSSWithinTenTimesInput runs `storyeval ngram -metrics
// cider` as a child process on an 11 MB random-text corpus, where nearly
// every n-gram is new (the worst case for the document-frequency tables),
// and checks that its peak RSS (VmHWM) stays within ten times the input's
// size, the bound issue 24 sets for every reader.
func TestNgramCIDErPeakRSSWithinTenTimesInput(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from /proc")
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory inflates the child's RSS (measured 28.8x under -race vs 8.2-8.5x without)")
	}
	path := filepath.Join(t.TempDir(), "random11MB.json")
	writeRandomCorpus(t, path, 11<<20, 1)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	r := runProcess(t, nil, "ngram", "-tokenize", "none", "-metrics", "cider", "-in", path)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.peakRSS == 0 {
		t.Fatal("no peak RSS reported")
	}
	ratio := float64(r.peakRSS) / float64(st.Size())
	t.Logf("input %.1f MB, peak RSS %.1f MB (%.1fx), %.0f ms", float64(st.Size())/(1<<20), float64(r.peakRSS)/(1<<20), ratio, r.wall.Seconds()*1000)
	if ratio > 10 {
		t.Errorf("peak RSS %.1f MB is %.1fx the %.1f MB input, want at most 10x", float64(r.peakRSS)/(1<<20), ratio, float64(st.Size())/(1<<20))
	}
}
