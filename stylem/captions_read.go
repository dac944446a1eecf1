package stylem

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxCaptionLineBytes bounds one line of a captions file, so that a file
// without line breaks fails with a clear error instead of filling memory.
const maxCaptionLineBytes = 16 << 20

// Caption is one caption to score with a Table: a line {"id": …,
// "caption": …, "refs": […]} of the JSON lines the storyeval stylem score
// command reads. Refs may be empty (StyleCIDEr is then NaN).
type Caption struct {
	ID      string
	Caption string
	Refs    []string
}

// CaptionReader reads captions from JSON lines one at a time, so that a
// file of any size is scored in bounded memory. Blank lines are skipped;
// a line must have "id" and "caption", and an id may appear once (the
// reader keeps the ids seen). A line is at most 16 MiB.
type CaptionReader struct {
	sc   *bufio.Scanner
	line int
	seen map[string]bool
	err  error
}

// NewCaptionReader returns a CaptionReader reading r.
func NewCaptionReader(r io.Reader) *CaptionReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxCaptionLineBytes)
	return &CaptionReader{sc: sc, seen: map[string]bool{}}
}

// Line returns the line number of the caption Next returned last.
func (r *CaptionReader) Line() int { return r.line }

// Next returns the next caption, or io.EOF after the last. An error names
// the line; after an error Next returns the same error.
func (r *CaptionReader) Next() (Caption, error) {
	if r.err != nil {
		return Caption{}, r.err
	}
	c, err := r.next()
	r.err = err
	return c, err
}

func (r *CaptionReader) next() (Caption, error) {
	for r.sc.Scan() {
		r.line++
		line := bytes.TrimSpace(r.sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l struct {
			ID      *string  `json:"id"`
			Caption *string  `json:"caption"`
			Refs    []string `json:"refs"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return Caption{}, fmt.Errorf("line %d: %w", r.line, err)
		}
		if l.ID == nil || l.Caption == nil {
			return Caption{}, fmt.Errorf("line %d: needs \"id\" and \"caption\"", r.line)
		}
		if r.seen[*l.ID] {
			return Caption{}, fmt.Errorf("line %d: id %q appears twice", r.line, *l.ID)
		}
		r.seen[*l.ID] = true
		return Caption{ID: *l.ID, Caption: *l.Caption, Refs: l.Refs}, nil
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Caption{}, fmt.Errorf("line %d is longer than 16 MiB", r.line+1)
		}
		return Caption{}, err
	}
	return Caption{}, io.EOF
}
