package train

import (
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/vhed"
)

// defaultMaxPairsCSVBytes bounds what ReadPairs reads when its limits
// leave MaxBytes zero (VHED's CSV files are a few megabytes).
const defaultMaxPairsCSVBytes = 256 << 20

// ReadPairs reads training pairs from a CSV with a header row naming
// at least the VHED columns sent1, sent2 and label (the gap: average rank of
// story 1 minus that of story 2, taken as written); other columns are
// ignored. It reads through package vhed's reader in its stories-and-label
// mode, so a training file is parsed as the assessments parse VHED, and
// errors name the line and column of a bad value. l bounds the input
// (MaxBytes 0: 256 MiB; over it, a *limits.TooLargeError).
func ReadPairs(r io.Reader, l limits.Limits) ([]Pair, error) {
	rows, err := vhed.Read(r, vhed.ReadOptions{Limits: limits.Limits{MaxBytes: l.Bytes(defaultMaxPairsCSVBytes)}, StoriesOnly: true, Label: true})
	if err != nil {
		return nil, fmt.Errorf("training CSV: %w", err)
	}
	out := make([]Pair, len(rows))
	for i, p := range rows {
		out[i] = Pair{Story1: p.Story1, Story2: p.Story2, Gap: p.Gap}
	}
	return out, nil
}

// LoadPairs reads training pairs from a CSV file (see
// ReadPairs).
func LoadPairs(path string, l limits.Limits) ([]Pair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ex, err := ReadPairs(f, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ex, nil
}
