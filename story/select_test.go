package story_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/story"
)

func ExampleSet_Select() {
	set, _ := story.NewSet(story.Story{ID: "a", Text: "one ."}, story.Story{ID: "b", Text: "two ."}, story.Story{ID: "c", Text: "three ."})
	picked, _ := set.Select([]string{"c", "a"})
	fmt.Println(story.Texts(picked))
	_, err := set.Select([]string{"b", "nope"})
	fmt.Println(err)
	// Output:
	// [three . one .]
	// story "nope" is not in the set
}

// TestSelect checks the order of the selection, the whole set for no ids,
// and the typed error naming the first missing id.
func TestSelect(t *testing.T) {
	set, err := story.NewSet(story.Story{ID: "a"}, story.Story{ID: "b"}, story.Story{ID: "c"})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ss []story.Story) (out []string) {
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tc := range []struct{ in, want []string }{
		{nil, []string{"a", "b", "c"}},
		{[]string{"b"}, []string{"b"}},
		{[]string{"c", "a", "c"}, []string{"c", "a", "c"}},
	} {
		got, err := set.Select(tc.in)
		if err != nil || !reflect.DeepEqual(ids(got), tc.want) {
			t.Errorf("Select(%q) = %q, %v; want %q", tc.in, ids(got), err, tc.want)
		}
	}
	_, err = set.Select([]string{"a", "", "zz"})
	var unknown *story.UnknownIDError
	if !errors.As(err, &unknown) || unknown.ID != "" {
		t.Errorf("Select with an empty id: %v, want an *UnknownIDError for \"\"", err)
	}
	if got := story.Texts(nil); len(got) != 0 {
		t.Errorf("Texts(nil) = %q", got)
	}
	if got := story.IDs([]story.Story{{ID: "b", Text: "x"}, {ID: "a"}}); !reflect.DeepEqual(got, []string{"b", "a"}) {
		t.Errorf("IDs = %q, want [b a]", got)
	}
}

// TestLoadSelection reads a file, selects ids from it and checks the two
// errors: an id not in the file names it and the file; an empty file has
// no stories.
func TestLoadSelection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	empty := filepath.Join(dir, "empty.json")
	if os.WriteFile(path, []byte(`{"a": "one .", "b": "two ."}`), 0o644) != nil || os.WriteFile(empty, []byte(`{}`), 0o644) != nil {
		t.Fatal("cannot write the inputs")
	}
	got, err := story.LoadSelection(path, []string{"b"}, story.ReadOptions{})
	if err != nil || len(got) != 1 || got[0].Text != "two ." {
		t.Errorf("LoadSelection b = %v, %v; want the story b", got, err)
	}
	_, err = story.LoadSelection(path, []string{"a", "zz"}, story.ReadOptions{})
	var unknown *story.UnknownIDError
	if !errors.As(err, &unknown) || err.Error() != `story "zz" is not in `+path {
		t.Errorf("unknown id: %v, want an *UnknownIDError naming zz and %s", err, path)
	}
	if _, err := story.LoadSelection(empty, nil, story.ReadOptions{}); err == nil || err.Error() != empty+": no stories" {
		t.Errorf("empty file: %v, want %q", err, empty+": no stories")
	}
}
