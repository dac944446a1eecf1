package story

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// vistSentence is one entry of a VIST story-in-sequence file's
// "annotations" (each entry is a one-element list).
type vistSentence struct {
	StoryID      *string `json:"story_id"`
	PhotoID      *string `json:"photo_flickr_id"`
	Order        *int    `json:"worker_arranged_photo_order"`
	Text         *string `json:"text"`
	OriginalText *string `json:"original_text"`
}

// ParseVIST decodes a VIST story-in-sequence (SIS) file: its
// "annotations" list one sentence each, with story_id, photo_flickr_id,
// worker_arranged_photo_order and text. A story's sentences are put in
// photo order and joined with single spaces (as VIST's story references are
// built), its images in the same order; stories keep the order in which
// their first sentence appears. name labels errors (usually the file path).
func ParseVIST(data []byte, name string, opts ReadOptions) (*Set, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, opts.tooLarge(name)
	}
	var file struct {
		Annotations *[][]vistSentence `json:"annotations"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, &ParseError{File: name, Err: fmt.Errorf("not a VIST story-in-sequence file: %w", err)}
	}
	if file.Annotations == nil {
		return nil, &ParseError{File: name, Err: errors.New(`not a VIST story-in-sequence file: no "annotations" list`)}
	}
	type part struct {
		order int
		photo string
		text  string
	}
	var order []string
	parts := map[string][]part{}
	for i, entry := range *file.Annotations {
		if len(entry) != 1 {
			return nil, &ParseError{File: name, Err: fmt.Errorf("annotations[%d] holds %d sentences, want 1", i, len(entry))}
		}
		s := entry[0]
		if s.StoryID == nil || *s.StoryID == "" {
			return nil, &ParseError{File: name, Err: fmt.Errorf("annotations[%d] has no story_id", i)}
		}
		id := *s.StoryID
		text := s.Text
		field := "text"
		if opts.OriginalText {
			text, field = s.OriginalText, "original_text"
		}
		switch {
		case s.PhotoID == nil || *s.PhotoID == "":
			return nil, &ParseError{File: name, ID: id, Err: fmt.Errorf("annotations[%d] has no photo_flickr_id", i)}
		case s.Order == nil:
			return nil, &ParseError{File: name, ID: id, Err: fmt.Errorf("annotations[%d] has no worker_arranged_photo_order", i)}
		case text == nil:
			return nil, &ParseError{File: name, ID: id, Err: fmt.Errorf("annotations[%d] has no %s", i, field)}
		}
		if _, seen := parts[id]; !seen {
			order = append(order, id)
		}
		for _, p := range parts[id] {
			if p.order == *s.Order {
				return nil, &ParseError{File: name, ID: id, Err: fmt.Errorf("annotations[%d] repeats worker_arranged_photo_order %d", i, p.order)}
			}
		}
		parts[id] = append(parts[id], part{order: *s.Order, photo: *s.PhotoID, text: *text})
	}
	set := &Set{}
	for _, id := range order {
		ps := parts[id]
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].order < ps[b].order })
		st := Story{ID: id}
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = strings.TrimSpace(p.text)
			st.Images = append(st.Images, Image{ID: p.photo})
		}
		st.Text = strings.Join(texts, " ")
		if opts.RejectBlank && st.IsBlank() {
			return nil, &ParseError{File: name, ID: id, Err: errors.New("empty story")}
		}
		if err := set.Add(st); err != nil {
			return nil, &ParseError{File: name, ID: id, Err: err}
		}
	}
	return set, nil
}
