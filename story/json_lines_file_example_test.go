package story_test

import (
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/storyeval/storyeval/story"
)

// Each story's words, one JSON line per story in file order.
func ExampleWriteJSONLinesFile() {
	dir, err := os.MkdirTemp("", "storyeval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "stories.json")
	if err := os.WriteFile(path, []byte(`{"b": "a dog ran .", "a": "we <3 the beach ."}`), 0o644); err != nil {
		log.Fatal(err)
	}
	words := func(batch []story.Story) ([][]string, error) {
		out := make([][]string, len(batch))
		for i, st := range batch {
			out[i] = strings.Fields(st.Text)
		}
		return out, nil
	}
	if err := story.WriteJSONLinesFile(os.Stdout, path, story.ReadOptions{}, story.BatchOptions{}, words); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ["a","dog","ran","."]
	// ["we","<3","the","beach","."]
}
