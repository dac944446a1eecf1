package vhed

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
)

// ReadReferences reads reference stories for reference-based metrics from
// a JSON object {img_seq: [reference, ...]}, the form References returns.
// Each key must be an image sequence ImageIDs accepts, since keys are
// matched to the VHED rows' img_seq by their photo ids, and no reference
// may be empty. Data after the object is an error. Errors name the
// sequence; the caller adds the file's name.
func ReadReferences(r io.Reader) (map[string][]string, error) {
	var refs map[string][]string
	dec := json.NewDecoder(r)
	if err := dec.Decode(&refs); err != nil {
		return nil, fmt.Errorf("want a JSON object {img_seq: [reference, ...]}: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the JSON object")
	}
	for seq, rs := range refs {
		if _, err := ImageIDs(seq); err != nil {
			return nil, err
		}
		for i, r := range rs {
			if strings.TrimSpace(r) == "" {
				return nil, fmt.Errorf("%s: reference %d is empty", errtext.Quote(seq), i)
			}
		}
	}
	return refs, nil
}
