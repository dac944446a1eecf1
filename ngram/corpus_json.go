package ngram

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxCorpusBytes bounds the size of a corpus file ReadCorpus accepts.
const MaxCorpusBytes = 1 << 30

// DecodeCorpus parses the JSON corpus format
//
//	{"cands": {id: candidate}, "refs": {id: [reference, ...]}}
//
// and validates it as NewCorpus does. Items keep the order of "cands" in
// the file (json.load keeps it too, so the toolkit's dicts iterate the same
// way). Unknown top-level keys, a repeated id, nulls, non-string captions
// and trailing data are errors, so nothing is dropped silently.
func DecodeCorpus(data []byte) (*Corpus, error) {
	d := corpusDecoder{dec: json.NewDecoder(bytes.NewReader(data))}
	ids, cands, refs, err := d.decode()
	if err != nil {
		return nil, fmt.Errorf("corpus JSON: %w", err)
	}
	return NewCorpusInOrder(ids, cands, refs)
}

// corpusDecoder walks the corpus JSON token by token, which keeps the
// members' order and sees repeated keys that a map would merge.
type corpusDecoder struct {
	dec *json.Decoder
}

func (d *corpusDecoder) decode() (ids []string, cands map[string]string, refs map[string][]string, err error) {
	tok, err := d.dec.Token()
	if err == io.EOF {
		return nil, nil, nil, errors.New(`the input is empty; want {"cands": {...}, "refs": {...}}`)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return nil, nil, nil, fmt.Errorf(`want an object {"cands": {...}, "refs": {...}}, got %s`, describeJSONToken(tok))
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return nil, nil, nil, err
		}
		switch key, _ := tok.(string); key {
		case "cands":
			if cands != nil {
				return nil, nil, nil, errors.New(`"cands" appears twice`)
			}
			cands = map[string]string{}
			err = d.object("cands", func(id string) error {
				if _, dup := cands[id]; dup {
					return fmt.Errorf("candidate id %q appears twice", id)
				}
				s, err := d.str()
				if err != nil {
					return fmt.Errorf("candidate %q: %w", id, err)
				}
				ids = append(ids, id)
				cands[id] = s
				return nil
			})
		case "refs":
			if refs != nil {
				return nil, nil, nil, errors.New(`"refs" appears twice`)
			}
			refs = map[string][]string{}
			err = d.object("refs", func(id string) error {
				if _, dup := refs[id]; dup {
					return fmt.Errorf("reference id %q appears twice", id)
				}
				rs, err := d.strList()
				if err != nil {
					return fmt.Errorf("references of %q: %w", id, err)
				}
				refs[id] = rs
				return nil
			})
		default:
			return nil, nil, nil, fmt.Errorf(`unknown member %q (want "cands" and "refs")`, key)
		}
		if err != nil {
			return nil, nil, nil, err
		}
	}
	if _, err := d.dec.Token(); err != nil {
		return nil, nil, nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, nil, nil, errors.New("trailing data after the object")
	}
	if cands == nil {
		return nil, nil, nil, errors.New(`missing "cands"`)
	}
	if refs == nil {
		return nil, nil, nil, errors.New(`missing "refs"`)
	}
	return ids, cands, refs, nil
}

// object reads a JSON object and calls member for each key, with the
// decoder positioned at the member's value.
func (d *corpusDecoder) object(what string, member func(key string) error) error {
	tok, err := d.dec.Token()
	if err != nil {
		return fmt.Errorf("%q: %w", what, err)
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return fmt.Errorf("%q: want an object {id: ...}, got %s", what, describeJSONToken(tok))
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return fmt.Errorf("%q: %w", what, err)
		}
		if err := member(tok.(string)); err != nil { // object keys are always strings
			return err
		}
	}
	_, err = d.dec.Token() // '}'
	return err
}

func (d *corpusDecoder) str() (string, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("want a string, got %s", describeJSONToken(tok))
	}
	return s, nil
}

func (d *corpusDecoder) strList() ([]string, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '[' {
		return nil, fmt.Errorf("want a list of strings, got %s", describeJSONToken(tok))
	}
	var out []string
	for d.dec.More() {
		s, err := d.str()
		if err != nil {
			return nil, fmt.Errorf("reference %d: %w", len(out), err)
		}
		out = append(out, s)
	}
	_, err = d.dec.Token() // ']'
	return out, err
}

// describeJSONToken names what a JSON token is, for error messages.
func describeJSONToken(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "an object"
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("%v", v)
	case float64, json.Number:
		return fmt.Sprintf("the number %v", v)
	}
	return fmt.Sprintf("%v", tok)
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
