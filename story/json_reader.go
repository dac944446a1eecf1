package story

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/internal/orderedjson"
)

// JSONReader reads a story set file (the layouts ParseJSON describes) one
// story at a time, so that a file of any size is scored in memory bounded
// by its largest story plus its ids (kept to reject a repeated id): the raw
// file and its parse are never held at once. A JSONReader must not be used
// by two goroutines at once.
type JSONReader struct {
	members *orderedjson.Members
	lr      *io.LimitedReader
	name    string
	opts    ReadOptions
	closer  io.Closer
	err     error
}

// NewJSONReader returns a reader of the story set that r holds. name labels
// errors (usually the file path).
func NewJSONReader(r io.Reader, name string, opts ReadOptions) *JSONReader {
	lr := &io.LimitedReader{R: r, N: opts.maxBytes() + 1}
	return &JSONReader{members: orderedjson.NewMembers(lr), lr: lr, name: name, opts: opts}
}

// OpenJSON opens a story set file for reading story by story; Close it
// when done.
func OpenJSON(path string, opts ReadOptions) (*JSONReader, error) {
	if path == "" {
		return nil, errors.New("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := NewJSONReader(bufio.NewReaderSize(f, 1<<16), path, opts)
	r.closer = f
	return r, nil
}

// Next returns the next story in file order, or io.EOF after the last one
// (once the rest of the file is checked). Any other error is a
// *ParseError naming the file and, where it lies within one, the story;
// after an error Next keeps returning it.
func (r *JSONReader) Next() (Story, error) {
	if r.err != nil {
		return Story{}, r.err
	}
	st, err := r.next()
	if err != nil {
		r.err = err
	}
	return st, err
}

func (r *JSONReader) next() (Story, error) {
	id, raw, err := r.members.Next()
	if r.lr.N <= 0 {
		return Story{}, r.opts.tooLarge(r.name)
	}
	if err == io.EOF {
		return Story{}, io.EOF
	}
	if err != nil {
		return Story{}, &ParseError{File: r.name, Err: err}
	}
	return decodeStory(id, raw, r.name, r.opts)
}

// Close closes the file OpenJSON opened; it does nothing for a reader made
// by NewJSONReader.
func (r *JSONReader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// decodeStory decodes one member {id: value} of a story set.
func decodeStory(id string, raw json.RawMessage, name string, opts ReadOptions) (Story, error) {
	st := Story{ID: id}
	switch firstByte(raw) {
	case '"':
		if err := json.Unmarshal(raw, &st.Text); err != nil {
			return Story{}, &ParseError{File: name, ID: id, Err: err}
		}
	case '{':
		var obj storyObject
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&obj); err != nil {
			return Story{}, &ParseError{File: name, ID: id, Err: fmt.Errorf("not a {\"story\", \"images\"} object: %w", err)}
		}
		if obj.Story == nil {
			return Story{}, &ParseError{File: name, ID: id, Err: errors.New(`no "story" member`)}
		}
		st.Text = *obj.Story
		for i, im := range obj.Images {
			if im == "" {
				return Story{}, &ParseError{File: name, ID: id, Err: fmt.Errorf("image %d has an empty id", i)}
			}
			st.Images = append(st.Images, Image{ID: im})
		}
	default:
		return Story{}, &ParseError{File: name, ID: id, Err: fmt.Errorf("want a story text or a {\"story\", \"images\"} object, got %s", describe(raw))}
	}
	if opts.RejectBlank && st.IsBlank() {
		return Story{}, &ParseError{File: name, ID: id, Err: errors.New("empty story")}
	}
	if id == "" {
		return Story{}, &ParseError{File: name, Err: errors.New("empty story id")}
	}
	return st, nil
}
