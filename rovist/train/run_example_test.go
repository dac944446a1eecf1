package train_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/rovist/train"
)

// Fine-tune RoViST-VG from files, as `storyeval rovist train vg` does:
// here the reference fixture's tiny checkpoint on four region–phrase pairs
// of its crops for two epochs, half of the pairs held out for validation.
func ExampleVGRun() {
	fix := filepath.Join("..", "..", "testdata", "e2e", "rovist_vg")
	dir, err := os.MkdirTemp("", "vgrun")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	pairs := filepath.Join(dir, "pairs.csv")
	os.WriteFile(pairs, []byte(`image_id,bbox,noun_phrase
2997155124,"[62.0, 62.0, 126.0, 94.0]",a brown dog
2997155124,"[4.0625, 67.4375, 41.25, 96.0]",the red car
3240246961,"[28.6875, 81.4375, 54.375, 135.0]",Zeppelin
2997155124,"[28.7734375, 17.75, 59.3515625, 45.140625]",two people walking on the beach
`), 0o644)
	run := train.VGRun{Pairs: pairs, Crops: filepath.Join(fix, "vist-entities"), GloVe: filepath.Join(fix, "glove.6B.300d.txt"),
		Init: filepath.Join(fix, "r2p_model_epoch2.pth.tar"), ViT: filepath.Join(fix, "vit-base-patch16-224-in21k"),
		ValidationFraction: 0.5, Out: filepath.Join(dir, "model"),
		Options: train.VGTrainOptions{Epochs: 2, BatchSize: 2, LearningRate: 1e-4}}
	rep, err := run.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range rep.Epochs {
		fmt.Printf("epoch %d: learning rate %.3g, validation loss measured: %v\n", e.Epoch, e.LearningRate, e.ValidationLoss > 0)
	}
	fmt.Println(filepath.Base(rep.Model))
	// Output:
	// epoch 1: learning rate 0.0001, validation loss measured: true
	// epoch 2: learning rate 9.5e-05, validation loss measured: true
	// model.safetensors
}

// Fine-tune RoViST-C from files, as `storyeval rovist train c` does: here
// the reference fixture's tiny checkpoint on its stories for one epoch.
func ExampleCoherenceRun() {
	fix := filepath.Join("..", "..", "testdata", "e2e", "rovist_c")
	dir, err := os.MkdirTemp("", "coherencerun")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	run := train.CoherenceRun{Stories: filepath.Join(fix, "stories.json"), ALBERT: filepath.Join(fix, "albert-large-v1"),
		Checkpoint: filepath.Join(fix, "sop_model_epoch4.pth.tar"), Out: dir,
		Options: train.CoherenceTrainOptions{Epochs: 1, BatchSize: 8, LearningRate: 1e-4, Seed: 3}}
	rep, err := run.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = train.LoadCoherenceModelDir(dir)
	fmt.Printf("%d epoch, model loads: %v\n", len(rep.Epochs), err == nil)
	// Output: 1 epoch, model loads: true
}
