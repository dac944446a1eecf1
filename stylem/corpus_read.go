package stylem

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/limits"
)

// defaultMaxCorpusBytes is the default limit on a corpus file's size.
const defaultMaxCorpusBytes = 2 << 30

// maxJSONLLine bounds one line of a JSONL file.
const maxJSONLLine = 1 << 20

// PersonalityCaptionsOptions configures ReadPersonalityCaptions. The zero
// value reads as the reference does.
type PersonalityCaptionsOptions struct {
	// FirstCommentOnly ignores "additional_comments" (test split).
	FirstCommentOnly bool
	// KeepExcluded keeps the records that the reference's main() drops:
	// those whose image_hash starts with "ac8" and those whose first
	// caption contains "[DISCONNECT]", "[TIMEOUT]" or "[RETURNED]".
	KeepExcluded bool
	// Limits bounds the input (MaxBytes 0: 2 GiB); a larger input fails
	// with a *limits.TooLargeError.
	Limits limits.Limits
}

// pcRecord is one PERSONALITY-CAPTIONS record (ParlAI personality_captions
// train/val/test.json) or one image of preStyleM's dataset_person.json.
type pcRecord struct {
	ImageHash          *string  `json:"image_hash"`
	Personality        *string  `json:"personality"`
	Comment            *string  `json:"comment"`
	AdditionalComments []string `json:"additional_comments"`
	Sentences          []string `json:"sentences"`
}

// ReadPersonalityCaptions reads the PERSONALITY-CAPTIONS JSON layout: a list
// of {"image_hash", "personality", "comment", "additional_comments"?, ...}
// records (other fields such as "candidates" are ignored). It also accepts
// preStyleM's {"images": [{"image_hash", "personality", "sentences"}]}.
// Captions are the comment followed by the additional comments.
//
// Matches the reference implementation, which drops records whose
// image_hash starts with "ac8" or whose first caption contains a
// [DISCONNECT], [TIMEOUT] or [RETURNED] marker (KeepExcluded turns this off).
func ReadPersonalityCaptions(r io.Reader, o PersonalityCaptionsOptions) ([]Record, error) {
	limit := o.Limits.Bytes(defaultMaxCorpusBytes)
	lr := &io.LimitedReader{R: r, N: limit + 1}
	dec := json.NewDecoder(bufio.NewReader(lr))
	tok, err := dec.Token()
	if err != nil {
		return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS: %w", err))
	}
	switch tok {
	case json.Delim('['):
	case json.Delim('{'):
		// preStyleM layout: find "images".
		found := false
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS: %w", err))
			}
			if k == "images" {
				found = true
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS: %w", err))
			}
		}
		if !found {
			return nil, fmt.Errorf("PERSONALITY-CAPTIONS: object without an \"images\" list")
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS: \"images\" is not a list"))
		}
	default:
		return nil, fmt.Errorf("PERSONALITY-CAPTIONS: want a JSON list of records, found %v", tok)
	}
	var recs []Record
	for i := 0; dec.More(); i++ {
		var pr pcRecord
		if err := dec.Decode(&pr); err != nil {
			return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS record %d: %w", i, err))
		}
		rec, err := pr.record(i, o.FirstCommentOnly)
		if err != nil {
			return nil, err
		}
		if !o.KeepExcluded && referenceExcludes(&rec) {
			continue
		}
		recs = append(recs, rec)
	}
	if _, err := dec.Token(); err != nil {
		return nil, pcError(lr, limit, fmt.Errorf("PERSONALITY-CAPTIONS: unterminated list: %w", err))
	}
	if lr.N <= 0 {
		return nil, &limits.TooLargeError{Name: "PERSONALITY-CAPTIONS", Limit: limit}
	}
	return recs, nil
}

func pcError(lr *io.LimitedReader, limit int64, err error) error {
	if lr.N <= 0 {
		return &limits.TooLargeError{Name: "PERSONALITY-CAPTIONS", Limit: limit}
	}
	return err
}

func (pr *pcRecord) record(i int, firstOnly bool) (Record, error) {
	if pr.ImageHash == nil || pr.Personality == nil {
		return Record{}, fmt.Errorf("PERSONALITY-CAPTIONS record %d: missing \"image_hash\" or \"personality\"", i)
	}
	rec := Record{Image: *pr.ImageHash, Style: *pr.Personality}
	switch {
	case pr.Comment != nil:
		rec.Captions = append(rec.Captions, *pr.Comment)
		if !firstOnly {
			rec.Captions = append(rec.Captions, pr.AdditionalComments...)
		}
	case len(pr.Sentences) > 0:
		rec.Captions = pr.Sentences
		if firstOnly {
			rec.Captions = rec.Captions[:1]
		}
	default:
		return Record{}, fmt.Errorf("PERSONALITY-CAPTIONS record %d (image %q): no \"comment\" or \"sentences\"", i, rec.Image)
	}
	if rec.Style == "" {
		return Record{}, fmt.Errorf("PERSONALITY-CAPTIONS record %d (image %q): empty personality", i, rec.Image)
	}
	return rec, nil
}

// referenceExcludes reports whether the reference's main() drops rec.
func referenceExcludes(rec *Record) bool {
	if strings.HasPrefix(rec.Image, "ac8") {
		return true
	}
	first := rec.Captions[0]
	return strings.Contains(first, "[DISCONNECT]") || strings.Contains(first, "[TIMEOUT]") || strings.Contains(first, "[RETURNED]")
}

// corpusLine is one line of the JSONL corpus format.
type corpusLine struct {
	Style   *string `json:"style"`
	Caption *string `json:"caption"`
	Image   *string `json:"image"`
}

// ReadCorpusJSONL reads a corpus with one {"style", "caption", "image"}
// object per line (blank lines are skipped); each line becomes a record
// with one caption. A line without "image" gets the image "#<line number>",
// so it groups with no other line. l bounds the input (MaxBytes 0: 2 GiB;
// over it, a *limits.TooLargeError); a line may hold at most 1 MiB.
func ReadCorpusJSONL(r io.Reader, l limits.Limits) ([]Record, error) {
	maxBytes := l.Bytes(defaultMaxCorpusBytes)
	lr := &io.LimitedReader{R: r, N: maxBytes + 1}
	sr := &stickyReader{r: lr}
	sc := bufio.NewScanner(sr)
	sc.Buffer(make([]byte, 0, 64<<10), maxJSONLLine)
	var recs []Record
	ln := 0
	for sc.Scan() {
		ln++
		if sr.err != nil {
			// A read error (a gzip bound, a bad gzip stream) makes the
			// scanner hand out the cut line as the last one; report the
			// error, not the cut line's JSON.
			return nil, fmt.Errorf("corpus: %w", sr.err)
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var cl corpusLine
		if err := json.Unmarshal(line, &cl); err != nil {
			if lr.N <= 0 { // the line was cut by the size limit
				return nil, &limits.TooLargeError{Name: "corpus", Limit: maxBytes}
			}
			return nil, fmt.Errorf("corpus line %d: %w", ln, err)
		}
		if cl.Style == nil || *cl.Style == "" {
			return nil, fmt.Errorf("corpus line %d: missing or empty \"style\"", ln)
		}
		if cl.Caption == nil {
			return nil, fmt.Errorf("corpus line %d: missing \"caption\"", ln)
		}
		img := fmt.Sprintf("#%d", ln)
		if cl.Image != nil {
			img = *cl.Image
		}
		recs = append(recs, Record{Image: img, Style: *cl.Style, Captions: []string{*cl.Caption}})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("corpus line %d is longer than %d bytes", ln+1, maxJSONLLine)
		}
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if lr.N <= 0 {
		return nil, &limits.TooLargeError{Name: "corpus", Limit: maxBytes}
	}
	return recs, nil
}

// stickyReader remembers the first error of r other than io.EOF.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}
