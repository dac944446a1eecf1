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

// Hand a model's weights to other code and build a model back from them in
// memory, as vrank/train's trainers do: here the head's bias is raised by
// 0.5, which raises every predicted gap by 0.5.
func ExampleModel_WithWeights() {
	m, err := vrank.Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		fmt.Println(err)
		return
	}
	ws := m.Weights() // a copy, under the checkpoint names
	for i := range ws {
		if ws[i].Name == "regression_layer.bias" {
			ws[i].Data[0] += 0.5
		}
	}
	shifted, err := m.WithWeights(ws)
	if err != nil {
		fmt.Println(err)
		return
	}
	s1, s2 := []string{"The Cat SAT on the mat. It's [male]'s cat!"}, []string{"A dog [SEP] barked."}
	before, _ := m.Predict(context.Background(), s1, s2)
	after, _ := shifted.Predict(context.Background(), s1, s2)
	fmt.Printf("%d weights; gap %.4f, then %.4f\n", len(ws), before[0], after[0])
	// Output: 39 weights; gap -0.2536, then 0.2464
}
