package nn_test

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/nn"
)

// A model lists its parameters once, as a walk; the list gives names and
// shapes for saving and loading, and zeroed tensors for Adam's moments.
func ExampleCollect() {
	head := nn.NewLinear[float32](2, 3)
	norm := nn.NewNorm[float32](3)
	walk := func(add nn.TensorNamer[float32]) {
		add.Norm("head.norm", &norm)
		add.Linear("head.dense", &head)
	}
	params := nn.Collect(walk)
	moments := nn.ZerosLike(params)
	for i, p := range params {
		fmt.Println(p.Name, p.Shape, len(moments[i].Data))
	}
	// Output:
	// head.norm.weight [3] 3
	// head.norm.bias [3] 3
	// head.dense.weight [2 3] 6
	// head.dense.bias [2] 2
}

// BERT's walk, declared once in WalkBERT, allocates a trainer's
// parameters and lists them under BertModel's checkpoint names; the
// inference encoders read a checkpoint through the same walk.
func ExampleBERTParams() {
	shape := nn.BERTShape{Vocab: 30, Positions: 16, Types: 2, Hidden: 8, Intermediate: 32, Layers: 2}
	p := nn.NewBERTParams[float32](shape, true)
	params := nn.Collect(func(add nn.TensorNamer[float32]) { p.Walk(nn.Lister[float32]{Add: add}, "bert.") })
	fmt.Println(len(params), "tensors")
	for _, i := range []int{0, 4, 5, 21, len(params) - 1} {
		fmt.Println(params[i].Name, params[i].Shape)
	}
	// Output:
	// 39 tensors
	// bert.embeddings.word_embeddings.weight [30 8]
	// bert.embeddings.LayerNorm.bias [8]
	// bert.encoder.layer.0.attention.self.query.weight [8 8]
	// bert.encoder.layer.1.attention.self.query.weight [8 8]
	// bert.pooler.dense.bias [8]
}
