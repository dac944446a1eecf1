package checkpoint

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/internal/dense"
)

// TestConcurrentReadsAndClose reads one State from many goroutines while it
// is closed: every read either succeeds with the right values or returns
// ErrClosed (run with -race).
func TestConcurrentReadsAndClose(t *testing.T) {
	path, name := fixtureSafetensors(t)
	ref := mustOpen(t, path)
	want := float32Bits(t, ref, name)
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				x, err := st.Float32(name)
				if errors.Is(err, ErrClosed) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				if got := dense.Data(x).([]float32); len(got) != len(want) {
					t.Errorf("%d elements, want %d", len(got), len(want))
					return
				}
			}
		}()
	}
	if err := st.Close(); err != nil {
		t.Error(err)
	}
	wg.Wait()
	if _, err := st.Float32(name); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// TestDeflatedZipEntries re-zips a torch checkpoint with compression (torch
// never does, a user's tool might): tensors inflate into memory, bounded by
// MaxDecompressedBytes, and read the same.
func TestDeflatedZipEntries(t *testing.T) {
	src := "testdata/torch_zip_views.pt"
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		rc, _ := f.Open()
		if _, err := io.Copy(w, rc); err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "deflated.pt")
	os.WriteFile(p, buf.Bytes(), 0o644)
	st := mustOpen(t, p)
	orig := mustOpen(t, src)
	for _, name := range orig.Names() {
		info, _ := orig.Info(name)
		if !info.DType.IsFloat() {
			continue
		}
		a, b := float32Bits(t, orig, name), float32Bits(t, st, name)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s[%d] differs when deflated", name, i)
			}
		}
		// Reading twice must give the same (heap data is never released).
		c := float32Bits(t, st, name)
		for i := range a {
			if a[i] != c[i] {
				t.Fatalf("%s[%d] differs on the second read", name, i)
			}
		}
	}
	if _, err := (Options{MaxDecompressedBytes: 16}).Open(p); err == nil {
		t.Error("a 16-byte decompression limit was not enforced")
	}
}
