package demomodels_test

import (
	"fmt"
	"log"
	"os"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/internal/demomodels"
	"github.com/storyeval/storyeval/story"
)

// Write a demonstration models folder for a suite and check it as
// `storyeval models -dir` does: every learned metric is enabled.
func ExampleWrite() {
	suite, err := story.ParseSuite([]byte(`{"sequences": {"1": {"references": ["a dog ran ."],
		"stories": {"a": "A dog runs. It stops.", "b": "The beach is wide. The sea is blue."}}}}`), "suite", story.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "demo")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	d, err := demomodels.Write(dir, suite)
	if err != nil {
		log.Fatal(err)
	}
	st, err := compare.CheckModels(d.Models)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range st {
		fmt.Println(s.Metric, s.Enabled, len(s.Found), "files")
	}
	fmt.Println(len(d.Suite.At(0).Images), "images")
	// Output:
	// RoViST-C true 3 files
	// RoViST-VG true 5 files
	// GROOViST true 4 files
	// CLIPScore true 4 files
	// Vrank true 3 files
	// 5 images
}
