package rovist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/limits"
)

// defaultNounsMaxBytes bounds a nouns file when LoadNouns is not told
// otherwise.
const defaultNounsMaxBytes = 1 << 30

// LoadNouns reads the nouns of each story, {id: [nouns]} as the
// reference's extract_nouns.py writes them, for VGOptions.Nouns. l bounds
// the file (MaxBytes 0: 1 GiB); a larger one fails with a
// *limits.TooLargeError. An error opening the file is the *fs.PathError;
// other errors name the file.
func LoadNouns(path string, l limits.Limits) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(limits.NewReader(f, path, l.Bytes(defaultNounsMaxBytes)))
	if err != nil {
		if errors.As(err, new(*limits.TooLargeError)) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var nouns map[string][]string
	if err := json.Unmarshal(data, &nouns); err != nil {
		return nil, fmt.Errorf("%s: want {id: [nouns]}: %w", path, err)
	}
	return nouns, nil
}
