package embcache

import (
	"fmt"
	"path/filepath"
	"strings"
)

// OpenDir opens the store FileName in dir, or in DefaultDir when dir is
// "": the folder convention of the storyeval command's -cache flag.
func OpenDir(dir string, opts Options) (*Store, error) {
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return Open(filepath.Join(dir, FileName), opts)
}

// Summary is what a store holds, by Kind, with the sizes per 10,000
// entries (what a planned cache will take): the JSON `storyeval cache
// stats` prints.
type Summary struct {
	Path      string `json:"path"`
	Entries   int    `json:"entries"`
	Bytes     int64  `json:"bytes"`
	FileBytes int64  `json:"file_bytes"`
	// FileBytesPer10000 is the file's size per 10,000 entries (bbolt
	// pages, free ones included); omitted when the store is empty.
	FileBytesPer10000 int64       `json:"file_bytes_per_10000_entries,omitempty"`
	Image             KindSummary `json:"image"`
	Text              KindSummary `json:"text"`
	// Verified is set when Options.Verify checked every page and value
	// at Open and found the store sound.
	Verified bool `json:"verified,omitempty"`
	// Rebuilt is Store.Rebuilt.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// KindSummary are the entries of one Kind: their count, the bytes of
// their keys and values, and those bytes per 10,000 entries.
type KindSummary struct {
	Entries       int   `json:"entries"`
	Bytes         int64 `json:"bytes"`
	BytesPer10000 int64 `json:"bytes_per_10000_entries,omitempty"`
}

// Summary returns what the store holds (Stats without the counters of
// this Open).
func (s *Store) Summary() (Summary, error) {
	st, err := s.Stats()
	if err != nil {
		return Summary{}, err
	}
	kind := func(k KindStats) KindSummary {
		return KindSummary{Entries: k.Entries, Bytes: k.Bytes, BytesPer10000: per10000(k.Bytes, k.Entries)}
	}
	why := s.Rebuilt()
	return Summary{Path: s.path, Entries: st.Entries, Bytes: st.Bytes, FileBytes: st.FileBytes,
		FileBytesPer10000: per10000(st.FileBytes, st.Entries), Image: kind(st.Image), Text: kind(st.Text),
		Verified: s.opts.Verify && why == "", Rebuilt: why}, nil
}

// per10000 is bytes per 10,000 entries, rounded down; 0 for no entries.
func per10000(bytes int64, entries int) int64 {
	if entries == 0 {
		return 0
	}
	return bytes * 10000 / int64(entries)
}

// FromCache says how many image and text embeddings were looked up and
// how many of those the store had: "N of M image embeddings, K of L text
// embeddings". A kind never looked up is left out, except that a run that
// looked up nothing reads "0 of 0 image embeddings".
func (st Stats) FromCache() string {
	var parts []string
	if n := st.Image.Hits + st.Image.Misses; n > 0 || st.Text.Hits+st.Text.Misses == 0 {
		parts = append(parts, fmt.Sprintf("%d of %d image embeddings", st.Image.Hits, n))
	}
	if n := st.Text.Hits + st.Text.Misses; n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d text embeddings", st.Text.Hits, n))
	}
	return strings.Join(parts, ", ")
}
