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

// Fine-tune a model one Adam step on a batch of pairs (the head's and the
// encoder's dropout off, as in the reference fixture's step); Train runs such steps over shuffled
// mini-batches for a number of epochs.
func ExampleTrainer_Step() {
	m, err := vrank.Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := vrank.NewTrainer(m, vrank.TrainOptions{NoDropout: true, NoEncoderDropout: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tr.Step(context.Background(), []vrank.TrainPair{
		{Story1: "The Cat SAT on the mat. It's [male]'s cat!", Story2: "A dog [SEP] barked.", Gap: -1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The reference predicts −0.2536 for this pair: (−0.2536 + 1)² = 0.5572.
	fmt.Printf("prediction %.4f, loss %.4f\n", res.Predictions[0], res.Loss)
	// Output: prediction -0.2536, loss 0.5572
}
