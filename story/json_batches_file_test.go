package story

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

// TestEachBatchFile checks the batches of a file, the bound of its
// ReadOptions and the error of a missing file.
func TestEachBatchFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"a": "aaaa", "b": "bbbb", "c": "cc"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	err := EachBatchFile(path, ReadOptions{}, BatchOptions{MaxStories: 2}, func(b []Story) error {
		got = append(got, []string{})
		for _, st := range b {
			got[len(got)-1] = append(got[len(got)-1], st.ID+"="+st.Text)
		}
		return nil
	})
	if want := [][]string{{"a=aaaa", "b=bbbb"}, {"c=cc"}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("batches %v, %v; want %v", got, err, want)
	}
	err = EachBatchFile(path, ReadOptions{Limits: limits.Limits{MaxBytes: 10}}, BatchOptions{}, func([]Story) error { return nil })
	var tl *limits.TooLargeError
	if !errors.As(err, &tl) {
		t.Errorf("10-byte limit: %v, want a TooLargeError", err)
	}
	if err := EachBatchFile(path+".missing", ReadOptions{}, BatchOptions{}, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
