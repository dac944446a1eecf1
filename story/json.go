package story

import (
	"bytes"
	"encoding/json"
	"io"
)

// storyObject is the per-story object of RoViST's story files
// ({"images": [...], "story": "..."}).
type storyObject struct {
	Story  *string  `json:"story"`
	Images []string `json:"images"`
}

// ParseJSON decodes a story set from a JSON object whose members are, in
// file order, either a story text ({id: "text"}, what the storyeval
// commands read) or an object {"story": "text", "images": ["id", ...]} as
// RoViST's scripts read. name labels errors (usually the file path).
// Duplicate ids, a value of another type and (with RejectBlank) a blank
// story are errors.
func ParseJSON(data []byte, name string, opts ReadOptions) (*Set, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, opts.tooLarge(name)
	}
	return readSet(NewJSONReader(bytes.NewReader(data), name, opts))
}

// readSet reads every story of r into a set.
func readSet(r *JSONReader) (*Set, error) {
	set := &Set{}
	for {
		st, err := r.Next()
		if err == io.EOF {
			return set, nil
		}
		if err != nil {
			return nil, err
		}
		if err := set.Add(st); err != nil {
			return nil, &ParseError{File: r.name, Err: err}
		}
	}
}

func firstByte(raw json.RawMessage) byte {
	b := bytes.TrimLeft(raw, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// describe names the JSON type of raw for error messages.
func describe(raw json.RawMessage) string {
	switch firstByte(raw) {
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "an object"
	case '"':
		return "a string"
	}
	return "a number"
}
