package vrank_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/vrank"
)

// Predict the ranking gap of a story pair with a trained model folder (here
// the reference fixture's tiny model); a negative gap means story 1 ranks
// better.
func ExampleModel_Predict() {
	m, err := vrank.Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		fmt.Println(err)
		return
	}
	gaps, err := m.Predict(context.Background(),
		[]string{"The Cat SAT on the mat. It's [male]'s cat!"},
		[]string{"A dog [SEP] barked."})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("gap %.4f, story 1 better: %v\n", gaps[0], gaps[0] < 0)
	// Output: gap -0.2536, story 1 better: true
}
