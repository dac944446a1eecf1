package gzipbound

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"
)

func gz(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zeroBomb is a gzip stream of n zero bytes, written without holding them.
func zeroBomb(t testing.TB, n int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, len(chunk))
		zw.Write(chunk[:k])
		n -= k
	}
	zw.Close()
	return buf.Bytes()
}

func TestReaderPassesOrdinaryData(t *testing.T) {
	want := bytes.Repeat([]byte("a caption about a dog, "), 100_000) // 2.3 MB, compresses ~400×
	r, err := NewReader(bytes.NewReader(gz(t, want)), Options{Ratio: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, err %v; want %d bytes", len(got), err, len(want))
	}
}

func TestReaderStopsABombEarly(t *testing.T) {
	bomb := zeroBomb(t, 64<<20) // 64 MiB of zeros in about 64 KB
	r, err := NewReader(bytes.NewReader(bomb), Options{Ratio: 10, Slack: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v after %d bytes, want ErrTooLarge", err, n)
	}
	// The bound is 10× the compressed bytes read plus the slack; gzip reads
	// its input at most a buffer (4 KB) and a DEFLATE block ahead.
	if limit := int64(10*len(bomb) + 1<<20 + 64<<10); n > limit {
		t.Fatalf("decompressed %d bytes before failing, want at most %d", n, limit)
	}
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("read after the failure: %v", err)
	}
}

func TestReaderMaxCapsWhateverTheRatio(t *testing.T) {
	r, err := NewReader(bytes.NewReader(gz(t, make([]byte, 5000))), Options{Max: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}
