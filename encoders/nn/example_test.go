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
