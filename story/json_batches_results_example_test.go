package story_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/storyeval/storyeval/story"
)

// Each story's word count, scored a batch at a time and printed in file
// order.
func ExampleEachResultFile() {
	dir, err := os.MkdirTemp("", "storyeval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "stories.json")
	if err := os.WriteFile(path, []byte(`{"b": "a dog ran .", "a": "we went to the beach ."}`), 0o644); err != nil {
		log.Fatal(err)
	}
	count := func(texts []string) ([]int, []error) {
		n := make([]int, len(texts))
		for i, s := range texts {
			n[i] = len(strings.Fields(s))
		}
		return n, make([]error, len(texts))
	}
	err = story.EachResultFile(path, story.ReadOptions{}, story.BatchOptions{MaxStories: 1}, count, func(id string, n int) error {
		fmt.Println(id, n)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// b 4
	// a 6
}
