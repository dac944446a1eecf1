package vhed

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
)

// ImageIDs parses an img_seq value into its image ids, so that the
// same sequence written differently — "[101, 102]" as pandas writes a
// list, "['101', '102']", "(101,102)", "101 102" — matches the same
// references. Brackets or parentheses around the list are dropped, ids are
// separated by commas (or, without commas, by white space), and quotes
// around an id are dropped. An empty list, an empty id, or an id with
// brackets, quotes or white space inside is an error.
func ImageIDs(seq string) ([]string, error) {
	s := strings.TrimSpace(seq)
	if len(s) >= 2 && (s[0] == '[' && s[len(s)-1] == ']' || s[0] == '(' && s[len(s)-1] == ')') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	var fields []string
	if strings.Contains(s, ",") {
		fields = strings.Split(s, ",")
	} else {
		fields = strings.Fields(s)
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("image sequence %s has no ids", errtext.Quote(seq))
	}
	ids := make([]string, len(fields))
	for i, f := range fields {
		id := strings.TrimSpace(f)
		if len(id) >= 2 && (id[0] == '\'' && id[len(id)-1] == '\'' || id[0] == '"' && id[len(id)-1] == '"') {
			id = id[1 : len(id)-1]
		}
		if id == "" || strings.ContainsAny(id, "[]()'\" \t\r\n") {
			return nil, fmt.Errorf("image sequence %s: id %d is %s, not an id", errtext.Quote(seq), i+1, errtext.Quote(id))
		}
		ids[i] = id
	}
	return ids, nil
}

// vhedImageKey is the key references are matched on: the ids of seq
// joined by commas.
func vhedImageKey(seq string) (string, error) {
	ids, err := ImageIDs(seq)
	if err != nil {
		return "", err
	}
	return strings.Join(ids, ","), nil
}

// imageKey returns the pair's ImageSeqKey, parsing ImageSeq for a pair not
// read by Reader.
func (p Pair) imageKey() (string, error) {
	if p.ImageSeqKey != "" {
		return p.ImageSeqKey, nil
	}
	k, err := vhedImageKey(p.ImageSeq)
	if err != nil {
		return "", fmt.Errorf("line %d: %w", p.Line, err)
	}
	return k, nil
}

// vhedReferenceIndex re-keys a references map by image-sequence key, so
// that differently written keys of the same sequence find each other. Two
// keys of the same sequence are an error.
func vhedReferenceIndex(refs map[string][]string) (map[string][]string, error) {
	out := make(map[string][]string, len(refs))
	from := make(map[string]string, len(refs))
	// In sorted order, so that an error names the same two keys each run.
	for _, seq := range slices.Sorted(maps.Keys(refs)) {
		rs := refs[seq]
		k, err := vhedImageKey(seq)
		if err != nil {
			return nil, fmt.Errorf("references: %w", err)
		}
		if prev, dup := from[k]; dup {
			return nil, fmt.Errorf("references: keys %s and %s name the same image sequence", errtext.Quote(prev), errtext.Quote(seq))
		}
		from[k] = seq
		out[k] = rs
	}
	return out, nil
}
