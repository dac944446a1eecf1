package compare_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/compare"
)

// A run of BLEU-4 and RoViST-C on a story-set file without a models folder:
// RoViST-C is unavailable and says what it needs.
func ExampleRunOptions_Open() {
	dir, err := os.MkdirTemp("", "storyeval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "suite.json")
	err = os.WriteFile(path, []byte(`{"systems": ["A", "B"], "sequences": {
	  "1": {"references": ["the dog ran ."], "stories": {"A": "the dog ran .", "B": "a cat ."}}}}`), 0o644)
	if err != nil {
		log.Fatal(err)
	}
	run, err := compare.RunOptions{Sources: compare.SourcesOptions{Stories: path}, Metrics: []string{"bleu", "c"}}.Open()
	if err != nil {
		log.Fatal(err)
	}
	defer run.Close()
	for _, u := range compare.UnavailableColumns(run.Sources.Suite, run.Metrics) {
		fmt.Printf("%s needs %s\n", u.Metric, u.Needs)
	}
	fmt.Println(len(run.Metrics), "metrics")
	// Output:
	// RoViST-C needs a models folder
	// 2 metrics
}
