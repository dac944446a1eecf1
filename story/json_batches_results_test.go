package story

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEachResultFile checks that each story's result reaches emit in file
// order across batches, and that a story's error stops the run there,
// naming the story.
func TestEachResultFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"a": "one two", "b": "three", "c": "", "d": "four"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	words := func(texts []string) ([]int, []error) {
		n, errs := make([]int, len(texts)), make([]error, len(texts))
		for i, s := range texts {
			if n[i] = len(strings.Fields(s)); n[i] == 0 {
				errs[i] = errors.New("no words")
			}
		}
		return n, errs
	}
	var got []string
	err := EachResultFile(path, ReadOptions{}, BatchOptions{MaxStories: 2}, words, func(id string, n int) error {
		got = append(got, id+"="+strings.Repeat("w", n))
		return nil
	})
	if want := []string{"a=ww", "b=w"}; !reflect.DeepEqual(got, want) {
		t.Errorf("emitted %v, want %v (the results before the failing story c)", got, want)
	}
	if err == nil || err.Error() != `story "c": no words` {
		t.Errorf("error %v, want story \"c\": no words", err)
	}
}
