package ngram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// MaxCorpusBytes bounds the size of a corpus file ReadCorpus accepts.
const MaxCorpusBytes = 1 << 30

// corpusFile is the toolkit-style input format.
type corpusFile struct {
	Cands map[string]*string   `json:"cands"`
	Refs  map[string][]*string `json:"refs"`
}

// DecodeCorpus parses the JSON corpus format
//
//	{"cands": {id: candidate}, "refs": {id: [reference, ...]}}
//
// and validates it as NewCorpus does. Unknown top-level keys, nulls,
// non-string captions and trailing data are errors, so nothing is dropped
// silently.
func DecodeCorpus(data []byte) (*Corpus, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f corpusFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("ngram: corpus JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("ngram: corpus JSON: trailing data after the object")
	}
	if f.Cands == nil {
		return nil, fmt.Errorf(`ngram: corpus JSON: missing "cands"`)
	}
	if f.Refs == nil {
		return nil, fmt.Errorf(`ngram: corpus JSON: missing "refs"`)
	}
	cands := make(map[string]string, len(f.Cands))
	for id, c := range f.Cands {
		if c == nil {
			return nil, fmt.Errorf("ngram: corpus JSON: candidate %q is null", id)
		}
		cands[id] = *c
	}
	refs := make(map[string][]string, len(f.Refs))
	for id, rs := range f.Refs {
		out := make([]string, len(rs))
		for i, r := range rs {
			if r == nil {
				return nil, fmt.Errorf("ngram: corpus JSON: reference %d of %q is null", i, id)
			}
			out[i] = *r
		}
		refs[id] = out
	}
	return NewCorpus(cands, refs)
}

// ReadCorpus reads and decodes a corpus file (see DecodeCorpus), refusing
// files larger than MaxCorpusBytes. Errors name the file.
func ReadCorpus(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxCorpusBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxCorpusBytes {
		return nil, fmt.Errorf("%s: larger than the %d-byte limit", path, MaxCorpusBytes)
	}
	c, err := DecodeCorpus(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
