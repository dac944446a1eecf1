package encoders_test

import (
	"context"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
)

// A BERT model loads from a HuggingFace directory (config.json and
// model.safetensors here: a tiny random model of the test fixtures).
func ExampleLoadBERT() {
	m, err := encoders.LoadBERT("../testdata/encoders/fixtures/bert")
	if err != nil {
		log.Fatal(err)
	}
	// [CLS] a man [SEP], as bert-base-uncased ids.
	enc := tokenize.Encoding{IDs: []int{101, 1037, 2158, 102}, TypeIDs: make([]int, 4), AttentionMask: []int{1, 1, 1, 1}, Tokens: make([]string, 4)}
	out, err := m.Forward(context.Background(), []tokenize.Encoding{enc}, encoders.ForwardOptions{})
	if err != nil {
		log.Fatal(err)
	}
	emb, err := out.SentenceEmbedding(encoders.PoolCLS)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("last hidden state", out.LastHiddenState.Shape(), "sentence embedding", emb.Shape())
	// Output: last hidden state (1, 4, 24) sentence embedding (1, 24)
}

// CLIP's logits are exp(logit_scale) times cosine similarities; the scale
// comes from the weights.
func ExampleCLIP_Logits() {
	m, err := encoders.LoadCLIP("../testdata/encoders/fixtures/clip")
	if err != nil {
		log.Fatal(err)
	}
	c := m.Config().VisionConfig
	img := imageproc.PixelValues{Channels: 3, Height: c.ImageSize, Width: c.ImageSize, Data: make([]float32, 3*c.ImageSize*c.ImageSize)}
	imgs, err := m.EmbedImages(context.Background(), []imageproc.PixelValues{img})
	if err != nil {
		log.Fatal(err)
	}
	perText, _, err := m.Logits(imgs, imgs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("self-similarity logit %.2f = exp(logit_scale) %.2f\n", perText.Float32s()[0], m.LogitScale())
	// Output: self-similarity logit 40.45 = exp(logit_scale) 40.45
}

// A model built in memory from another's parameters — a trainer's tensors
// become the scoring model without a file — computes the same outputs.
func ExampleNewBERTFrom() {
	cfg := encoders.BERTConfig{VocabSize: 30, HiddenSize: 8, NumHiddenLayers: 2, NumAttentionHeads: 2,
		IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	trained, err := encoders.NewBERTFrom(cfg, encoders.RandomWeights(1))
	if err != nil {
		log.Fatal(err)
	}
	params := trained.Params() // names as a BertModel checkpoint holds them
	fmt.Println(len(params), params[0].Name, params[0].Shape)
	scorer, err := encoders.NewBERTFrom(cfg, encoders.ParamWeights(params))
	if err != nil {
		log.Fatal(err)
	}
	enc := tokenize.Encoding{IDs: []int{1, 5, 7, 2}, TypeIDs: make([]int, 4), AttentionMask: []int{1, 1, 1, 1}, Tokens: make([]string, 4)}
	a, _ := trained.Forward(context.Background(), []tokenize.Encoding{enc}, encoders.ForwardOptions{})
	b, _ := scorer.Forward(context.Background(), []tokenize.Encoding{enc}, encoders.ForwardOptions{})
	fmt.Println(a.LastHiddenState.Float32s()[0] == b.LastHiddenState.Float32s()[0])
	// Output:
	// 39 embeddings.word_embeddings.weight [30 8]
	// true
}

// A model that holds the caller's parameter slices (on the CPU, without a
// copy): how vrank.Model keeps each weight once. The caller must leave the
// slices unchanged while the model is in use — here a change shows.
func ExampleSharedParamWeights() {
	cfg := encoders.BERTConfig{VocabSize: 30, HiddenSize: 8, NumHiddenLayers: 1, NumAttentionHeads: 2,
		IntermediateSize: 16, MaxPositionEmbeddings: 16, TypeVocabSize: 2}
	src, err := encoders.NewBERTFrom(cfg, encoders.RandomWeights(1))
	if err != nil {
		log.Fatal(err)
	}
	params := src.Params()
	shared, err := encoders.NewBERTFrom(cfg, encoders.SharedParamWeights(params))
	if err != nil {
		log.Fatal(err)
	}
	params[0].Data[0] = 0.5
	fmt.Println(shared.Params()[0].Data[0])
	// Output: 0.5
}
