package story

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/storyeval/storyeval/internal/orderedjson"
)

// storyObject is the per-story object of RoViST's story files
// ({"images": [...], "story": "..."}).
type storyObject struct {
	Story  *string  `json:"story"`
	Images []string `json:"images"`
}

// DecodeJSON decodes a story set from a JSON object whose members are, in
// file order, either a story text ({id: "text"}, what the storyeval
// commands read) or an object {"story": "text", "images": ["id", ...]} as
// RoViST's scripts read. name labels errors (usually the file path).
// Duplicate ids, a value of another type and (with RejectBlank) a blank
// story are errors.
func DecodeJSON(data []byte, name string, opts ReadOptions) (*Set, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, &ParseError{File: name, Err: fmt.Errorf("larger than the %d-byte limit", opts.maxBytes())}
	}
	set := &Set{}
	err := orderedjson.EachMember(data, func(id string, raw json.RawMessage) error {
		st := Story{ID: id}
		switch firstByte(raw) {
		case '"':
			if err := json.Unmarshal(raw, &st.Text); err != nil {
				return &ParseError{File: name, ID: id, Err: err}
			}
		case '{':
			var obj storyObject
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&obj); err != nil {
				return &ParseError{File: name, ID: id, Err: fmt.Errorf("not a {\"story\", \"images\"} object: %w", err)}
			}
			if obj.Story == nil {
				return &ParseError{File: name, ID: id, Err: errors.New(`no "story" member`)}
			}
			st.Text = *obj.Story
			for i, im := range obj.Images {
				if im == "" {
					return &ParseError{File: name, ID: id, Err: fmt.Errorf("image %d has an empty id", i)}
				}
				st.Images = append(st.Images, Image{ID: im})
			}
		default:
			return &ParseError{File: name, ID: id, Err: fmt.Errorf("want a story text or a {\"story\", \"images\"} object, got %s", describe(raw))}
		}
		if opts.RejectBlank && st.IsBlank() {
			return &ParseError{File: name, ID: id, Err: errors.New("empty story")}
		}
		if id == "" {
			return &ParseError{File: name, Err: errors.New("empty story id")}
		}
		return set.Add(st)
	})
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &ParseError{File: name, Err: err}
	}
	return set, nil
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
