package story

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteJSONLinesFile checks the lines of every batch, unescaped HTML,
// and that an error of lines keeps the values returned with it and stops
// the output there.
func TestWriteJSONLinesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"a": "x<y", "b": "bad", "c": "cc"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("bad story")
	lines := func(batch []Story) ([]string, error) {
		var out []string
		for _, st := range batch {
			if st.Text == "bad" {
				return out, bad
			}
			out = append(out, st.ID+":"+st.Text)
		}
		return out, nil
	}
	var sb strings.Builder
	err := WriteJSONLinesFile(&sb, path, ReadOptions{}, BatchOptions{MaxStories: 1}, lines)
	// The writer is flushed only on success: the partial output stays
	// buffered, as the command's did, and the error is what is reported.
	if !errors.Is(err, bad) || sb.String() != "" {
		t.Errorf("bad story: %q, %v; want no output and %v", sb.String(), err, bad)
	}
	if err := os.WriteFile(path, []byte(`{"a": "x<y", "c": "cc"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.Reset()
	if err := WriteJSONLinesFile(&sb, path, ReadOptions{}, BatchOptions{MaxStories: 1}, lines); err != nil {
		t.Fatal(err)
	}
	if want := "\"a:x<y\"\n\"c:cc\"\n"; sb.String() != want {
		t.Errorf("lines %q, want %q", sb.String(), want)
	}
}
