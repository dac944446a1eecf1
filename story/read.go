package story

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// readFile reads a whole file under the options' size limit.
func readFile(path string, opts ReadOptions) ([]byte, error) {
	if path == "" {
		return nil, errors.New("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(f, opts.maxBytes()+1))
	if err != nil {
		return nil, &ParseError{File: path, Err: err}
	}
	if n > opts.maxBytes() {
		return nil, opts.tooLarge(path)
	}
	return buf.Bytes(), nil
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
