// Package orderedjson reads JSON objects member by member in file order,
// which Go maps forget: the story readers and the command's {id: …} inputs
// must keep the order of the file and reject repeated ids.
package orderedjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// EachMember calls fn for every member of the JSON object in data, in file
// order. A repeated key is an error (a map-based reader would silently keep
// only one), and so are an empty input, a value that is not an object,
// malformed JSON and trailing data; messages say which.
func EachMember(data []byte, fn func(key string, value json.RawMessage) error) error {
	m := NewMembers(bytes.NewReader(data))
	for {
		key, raw, err := m.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(key, raw); err != nil {
			return err
		}
	}
}

// Members reads the members of one JSON object from a stream, one at a
// time, so that a large object is never held whole: memory is bounded by
// the largest member plus the set of keys seen (kept to reject a repeated
// key). Errors are EachMember's.
type Members struct {
	dec     *json.Decoder
	seen    map[string]struct{}
	started bool
	nested  bool  // the object is a value within dec's stream
	err     error // sticky: once Next fails it fails the same way
}

// NewMembers returns a reader of the JSON object that r holds (and nothing
// after it).
func NewMembers(r io.Reader) *Members {
	return &Members{dec: json.NewDecoder(r), seen: map[string]struct{}{}}
}

// NewNestedMembers returns a reader of the JSON object that is dec's next
// value; after the last member (io.EOF) dec is positioned after the
// object.
func NewNestedMembers(dec *json.Decoder) *Members {
	return &Members{dec: dec, seen: map[string]struct{}{}, nested: true}
}

// Next returns the next member in file order, or io.EOF after the last
// one once the object's end and the absence of trailing data are checked.
// The value's bytes are its own (not reused by later calls).
func (m *Members) Next() (key string, value json.RawMessage, err error) {
	if m.err != nil {
		return "", nil, m.err
	}
	key, value, m.err = m.next()
	return key, value, m.err
}

func (m *Members) next() (string, json.RawMessage, error) {
	dec := m.dec
	if !m.started {
		m.started = true
		tok, err := dec.Token()
		if err == io.EOF {
			return "", nil, errors.New("empty input: want a JSON object")
		}
		if err != nil {
			return "", nil, fmt.Errorf("not a JSON object: %w", err)
		}
		if d, ok := tok.(json.Delim); !ok || d != '{' {
			return "", nil, fmt.Errorf("want a JSON object, got %s", describeToken(tok))
		}
	}
	if !dec.More() {
		if _, err := dec.Token(); err != nil {
			return "", nil, fmt.Errorf("malformed JSON object: %w", err)
		}
		if m.nested {
			return "", nil, io.EOF
		}
		if _, err := dec.Token(); err != io.EOF {
			return "", nil, errors.New("trailing data after the JSON object")
		}
		return "", nil, io.EOF
	}
	tok, err := dec.Token()
	if err != nil {
		return "", nil, fmt.Errorf("malformed JSON object: %w", err)
	}
	key, _ := tok.(string) // object keys are always strings
	if _, dup := m.seen[key]; dup {
		return "", nil, fmt.Errorf("id %q appears twice", key)
	}
	m.seen[key] = struct{}{}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return "", nil, fmt.Errorf("value of %q: %w", key, err)
	}
	return key, raw, nil
}

// describeToken names the first JSON token of a non-object input.
func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
