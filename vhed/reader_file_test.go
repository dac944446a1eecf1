package vhed

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenReader reads vhed_small.csv plain and gzipped pair by pair and
// checks the stories against Load's; a missing file and a file without the
// VHED header fail, the latter naming the file.
func TestOpenReader(t *testing.T) {
	const path = "testdata/vhed_small.csv"
	want, err := Load(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(t.TempDir(), "vhed_small.csv.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, p := range []string{path, gz} {
		r, err := OpenReader(p, ReadOptions{StoriesOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		n := 0
		for ; ; n++ {
			pair, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s row %d: %v", p, n, err)
			}
			if n >= len(want) || pair.Story1 != want[n].Story1 || pair.Story2 != want[n].Story2 {
				t.Fatalf("%s row %d: stories differ from Load's", p, n)
			}
		}
		if n != len(want) {
			t.Errorf("%s: %d pairs, want %d", p, n, len(want))
		}
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	}
	if _, err := OpenReader(path+".missing", ReadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenReader(bad, ReadOptions{}); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("bad header: %v, want an error naming %s", err, bad)
	}
}
