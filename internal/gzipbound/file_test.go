package gzipbound

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFiles checks the file functions: a .gz name is decompressed, a
// plain one read as it is, a file above max refused with the error naming
// it and its size, a bomb stopped, and an empty path an error.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	text := []byte(strings.Repeat("story text\n", 100)) // 1,100 bytes
	plain, packed, bomb := filepath.Join(dir, "a.txt"), filepath.Join(dir, "a.txt.gz"), filepath.Join(dir, "bomb.gz")
	for path, data := range map[string][]byte{plain: text, packed: gz(t, text), bomb: zeroBomb(t, 64<<20)} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rc io.ReadCloser, err error) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(rc)
	}
	for _, path := range []string{plain, packed} {
		if got, err := read(OpenFile(path, 1<<20)); err != nil || !bytes.Equal(got, text) {
			t.Errorf("OpenFile(%s): %d bytes, %v; want the 1100-byte text", filepath.Base(path), len(got), err)
		}
	}
	if got, err := read(OpenFileBounded(packed, 1000)); err != nil || len(got) != 1000 {
		t.Errorf("OpenFileBounded(a.txt.gz, 1000): %d bytes, %v; want the first 1000", len(got), err)
	}
	if _, err := read(OpenFile(bomb, 1<<20)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("OpenFile(bomb.gz): %v, want ErrTooLarge", err)
	}
	wantTooLarge := plain + ": 1100 bytes is larger than the 1000-byte limit"
	if _, err := ReadFile(plain, 1000); err == nil || err.Error() != wantTooLarge {
		t.Errorf("ReadFile above max: %v, want %q", err, wantTooLarge)
	}
	if _, err := OpenFileBounded(plain, 1000); err == nil || err.Error() != wantTooLarge {
		t.Errorf("OpenFileBounded above max: %v, want %q", err, wantTooLarge)
	}
	data, err := ReadFile(packed, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Gunzip(data, 1<<20); err != nil || !bytes.Equal(got, text) {
		t.Errorf("Gunzip: %d bytes, %v", len(got), err)
	}
	if _, err := Gunzip(data, 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Gunzip above max: %v, want ErrTooLarge", err)
	}
	for name, f := range map[string]func() error{
		"ReadFile": func() error { _, err := ReadFile("", 1); return err },
		"OpenFile": func() error { _, err := OpenFile("", 1); return err },
	} {
		if err := f(); err == nil || err.Error() != "no input file given" {
			t.Errorf("%s(\"\"): %v", name, err)
		}
	}
	if _, err := OpenFile(filepath.Join(dir, "missing.gz"), 1); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenFile(missing.gz): %v", err)
	}
}
