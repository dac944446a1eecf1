package story

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// readLimited reads all of r, failing when it holds more than max bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("larger than the %d-byte limit", max)
	}
	return buf.Bytes(), nil
}

// readFile reads a whole file under the options' size limit.
func readFile(path string, opts ReadOptions) ([]byte, error) {
	if path == "" {
		return nil, errors.New("story: no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("story: %w", err)
	}
	defer f.Close()
	data, err := readLimited(f, opts.maxBytes())
	if err != nil {
		return nil, &ParseError{File: path, Err: err}
	}
	return data, nil
}

// LoadJSON reads a story set from a JSON file holding {id: story text} or
// {id: {"story": text, "images": [image ids]}} (see ParseJSON).
func LoadJSON(path string, opts ReadOptions) (*Set, error) {
	r, err := OpenJSON(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readSet(r)
}

// LoadVIST reads a story set from a VIST story-in-sequence JSON file (see
// ParseVIST).
func LoadVIST(path string, opts ReadOptions) (*Set, error) {
	data, err := readFile(path, opts)
	if err != nil {
		return nil, err
	}
	return ParseVIST(data, path, opts)
}
