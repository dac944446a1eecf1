package embcache

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummary: three image vectors of 8 floats and one text vector of 4
// give the hand-computed counts, bytes and bytes per 10,000 entries; the
// JSON carries the command's field names; Verified follows Options.Verify.
func TestSummary(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img := func(i int) Key { return ImageKey(ImageInput{Region: fmt.Sprint(i)}) }
	if err := s.PutMany([]Key{img(1), img(2), img(3), key(1)}, [][]float32{vec(1, 8), vec(2, 8), vec(3, 8), vec(4, 4)}); err != nil {
		t.Fatal(err)
	}
	sum, err := s.Summary()
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	imgBytes, textBytes := 3*int64(32+valueOverhead+32), int64(32+valueOverhead+16)
	want := Summary{Path: filepath.Join(dir, FileName), Entries: 4, Bytes: imgBytes + textBytes, FileBytes: sum.FileBytes,
		FileBytesPer10000: sum.FileBytes * 10000 / 4,
		Image:             KindSummary{Entries: 3, Bytes: imgBytes, BytesPer10000: imgBytes * 10000 / 3},
		Text:              KindSummary{Entries: 1, Bytes: textBytes, BytesPer10000: textBytes * 10000}}
	if sum != want || sum.FileBytes < sum.Bytes {
		t.Fatalf("summary %+v, want %+v", sum, want)
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"file_bytes_per_10000_entries":`, `"image":{"entries":3,`, `"bytes_per_10000_entries":`} {
		if !strings.Contains(string(b), field) {
			t.Errorf("JSON %s lacks %s", b, field)
		}
	}
	if strings.Contains(string(b), "verified") {
		t.Errorf("JSON %s: verified without Verify", b)
	}
	s, err = OpenDir(dir, Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if sum, err := s.Summary(); err != nil || !sum.Verified || sum.Rebuilt != "" || sum.Entries != 4 {
		t.Fatalf("with Verify: %+v, %v", sum, err)
	}
}

// TestSummaryEmptyAndDefaultDir: an empty store has no per-10,000 figures
// (no division by zero), and OpenDir("") opens the store in DefaultDir.
func TestSummaryEmptyAndDefaultDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	s, err := OpenDir("", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum, err := s.Summary()
	if err != nil || sum.Entries != 0 || sum.FileBytesPer10000 != 0 || sum.Image.BytesPer10000 != 0 || sum.Path != filepath.Join(dir, FileName) {
		t.Fatalf("empty store: %+v, %v", sum, err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
}

// TestStatsFromCache: the closing line's counts, by kind.
func TestStatsFromCache(t *testing.T) {
	for _, c := range []struct {
		img, text KindStats
		want      string
	}{
		{want: "0 of 0 image embeddings"},
		{img: KindStats{Hits: 3, Misses: 2}, want: "3 of 5 image embeddings"},
		{text: KindStats{Hits: 1, Misses: 6}, want: "1 of 7 text embeddings"},
		{img: KindStats{Misses: 4}, text: KindStats{Hits: 2}, want: "0 of 4 image embeddings, 2 of 2 text embeddings"},
	} {
		if got := (Stats{Image: c.img, Text: c.text}).FromCache(); got != c.want {
			t.Errorf("image %+v, text %+v: %q, want %q", c.img, c.text, got, c.want)
		}
	}
}
