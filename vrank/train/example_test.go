package train_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/vrank"
	"github.com/storyeval/storyeval/vrank/train"
)

// Fine-tune a model one Adam step on a batch of pairs (the head's and the
// encoder's dropout off, as in the reference fixture's step); Train runs such steps over shuffled
// mini-batches for a number of epochs.
func ExampleTrainer_Step() {
	m, err := vrank.Load(filepath.Join("..", "..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := train.NewTrainer(m, train.Options{NoDropout: true, NoEncoderDropout: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tr.Step(context.Background(), []train.Pair{
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
