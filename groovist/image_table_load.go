package groovist

import (
	"fmt"

	"github.com/storyeval/storyeval/limits"
)

// LoadImageTable reads d's image table (ParseImageTable) from the file at
// path, within l (MaxBytes 0: 1 GiB), for AssignImageIDs; a dataset that
// needs no table (Dataset.NeedsTable) has none, nil, and path is not read.
// An error opening the file is the *fs.PathError; other errors name the
// file.
func LoadImageTable(path string, d Dataset, l limits.Limits) (*ImageTable, error) {
	if !d.NeedsTable() {
		return nil, nil
	}
	data, err := loadBounded(path, l)
	if err != nil {
		return nil, err
	}
	t, err := ParseImageTable(data, d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
