package story_test

import (
	"errors"
	"fmt"
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
}
