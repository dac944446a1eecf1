package gzipbound

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// errNoPath is the error of a file function given an empty path.
var errNoPath = errors.New("no input file given")

// ReadFile reads the whole file at path, refusing a file above max bytes,
// so that a wrong path (a model checkpoint) fails fast instead of filling
// memory. Errors name the file, except os.Open's, which already does.
func ReadFile(path string, max int64) ([]byte, error) {
	if path == "" {
		return nil, errNoPath
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Size() > max {
		return nil, tooLarge(path, st.Size(), max)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}

func tooLarge(path string, size, max int64) error {
	return fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, size, max)
}

// Gunzip decompresses gzip data held in memory within max bytes and
// DefaultRatio of the compressed size.
func Gunzip(data []byte, max int64) ([]byte, error) {
	zr, err := NewReader(bytes.NewReader(data), Options{Max: max})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// OpenFile opens path for reading, decompressing it when the name ends in
// .gz, within max decompressed bytes and DefaultRatio. Closing the result
// closes the file.
func OpenFile(path string, max int64) (io.ReadCloser, error) {
	if path == "" {
		return nil, errNoPath
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := NewReader(bufio.NewReaderSize(f, 1<<16), Options{Max: max})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readCloser{zr, f}, nil
}

// OpenFileBounded is OpenFile refusing a regular file above max bytes and
// reading at most max bytes of any file (of a .gz file's decompressed
// bytes too).
func OpenFileBounded(path string, max int64) (io.ReadCloser, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > max {
		return nil, tooLarge(path, st.Size(), max)
	}
	rc, err := OpenFile(path, max)
	if err != nil {
		return nil, err
	}
	return readCloser{io.LimitReader(rc, max), rc}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}
