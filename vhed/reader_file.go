package vhed

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/internal/gzipbound"
)

// FileReader is a Reader of a VHED CSV file; Close closes the file.
type FileReader struct {
	*Reader
	file io.Closer
}

// OpenReader opens the VHED CSV at path, decompressing it when its name
// ends in .gz, and reads its header row (NewReader), so that a file of any
// size is read a row at a time. opts.Limits bounds the decompressed bytes
// (MaxBytes 0: 1 GiB). An error in the header names the file; an error
// opening it is the *fs.PathError.
func OpenReader(path string, opts ReadOptions) (*FileReader, error) {
	f, err := gzipbound.OpenFile(path, opts.Limits.Bytes(defaultMaxBytes))
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &FileReader{r, f}, nil
}

// Close closes the file.
func (r *FileReader) Close() error { return r.file.Close() }
