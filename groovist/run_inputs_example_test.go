package groovist_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/groovist"
)

// A run's inputs as groovist.py reads them: the stories, AESOP's image
// ids and θ preset.
func ExampleInputFiles_Load() {
	dir, err := os.MkdirTemp("", "storyeval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "stories.json")
	if err := os.WriteFile(path, []byte(`{"s1": "A fox sat under a tree."}`), 0o644); err != nil {
		log.Fatal(err)
	}
	run, err := groovist.InputFiles{Stories: path, Dataset: "aesop"}.Load()
	if err != nil {
		log.Fatal(err)
	}
	for _, im := range run.Inputs[0].Images {
		fmt.Print(im.ID, " ")
	}
	fmt.Println(run.Theta.Value() == groovist.ThetaAESOP, run.EstimateTheta)
	_, err = groovist.InputFiles{Stories: path, Dataset: "vist"}.Load()
	fmt.Println(err)
	// Output:
	// s1_0 s1_1 s1_2 true false
	// dataset vist needs an image table
}
