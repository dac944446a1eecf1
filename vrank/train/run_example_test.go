package train_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/vrank"
	"github.com/storyeval/storyeval/vrank/train"
)

// Pre-train an encoder on story texts, then fine-tune Vrank from it, from
// files, as `storyeval vrank pretrain` and `vrank train` do; here starting
// from the reference fixture's tiny model, for one epoch each.
func ExampleTrainRun() {
	dir, err := os.MkdirTemp("", "trainrun")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	corpus, pairs := filepath.Join(dir, "corpus.json"), filepath.Join(dir, "pairs.csv")
	os.WriteFile(corpus, []byte(`{"1": "We went to the beach. The sea was cold.", "2": "The cat sat on the mat.",
		"3": "A dog barked at the car.", "4": "We had a party and everyone smiled."}`), 0o644)
	os.WriteFile(pairs, []byte("sent1,sent2,label\nthe sea was cold,we had a party,1\nthe cat sat,a dog barked,-0.5\n"+
		"everyone smiled,the car,-1\nthe mat,we went to the beach,0.5\n"), 0o644)
	pre := train.PretrainRun{Corpus: corpus, Encoder: filepath.Join("..", "..", "testdata", "e2e", "vrank", "model"),
		Out: filepath.Join(dir, "encoder"), Options: train.PretrainOptions{Epochs: 1, ValidationFraction: -1}}
	prep, err := pre.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fine := train.TrainRun{CSV: pairs, Encoder: prep.Encoder, Out: filepath.Join(dir, "model"),
		Options: train.Options{Epochs: 1, BatchSize: 4, ValidationFraction: -1}}
	rep, err := fine.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = vrank.Load(rep.Model)
	fmt.Printf("pre-trained %d epoch, fine-tuned %d epoch, model loads: %v\n", len(prep.Epochs), len(rep.Epochs), err == nil)
	// Output: pre-trained 1 epoch, fine-tuned 1 epoch, model loads: true
}
