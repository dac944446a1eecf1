package encoders_test

import (
	"context"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gonum.org/v1/gonum/blas/gonum"
)

// A metric attaches its own head to an encoder stored in a larger training
// checkpoint: here a sentence-order classifier saved as {"model":
// state_dict} whose state_dict holds an AlbertModel under "albert_model."
// and an nn.Linear(hidden, 2) named "linear". The encoder loads from a Sub
// view, the head with LoadLinear, and the head reads the pooled output.
func ExampleLoadLinear() {
	const dir = "../testdata/e2e/rovist_c/"
	st, err := checkpoint.Open(dir + "sop_model_epoch4.pth.tar")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	var cfg encoders.ALBERTConfig
	if err := encoders.LoadConfig(dir+"albert-large-v1", &cfg); err != nil {
		log.Fatal(err)
	}
	albert, err := encoders.NewALBERT(cfg, st.Sub("model.albert_model."))
	if err != nil {
		log.Fatal(err)
	}
	head, err := encoders.LoadLinear(st, "model.linear")
	if err != nil {
		log.Fatal(err)
	}
	tok, err := tokenize.LoadALBERT(dir + "albert-large-v1")
	if err != nil {
		log.Fatal(err)
	}
	pair := tok.EncodePair("the dog ran to the park .", "it played with a ball .")
	out, err := albert.Forward(context.Background(), []tokenize.Encoding{pair}, encoders.ForwardOptions{})
	if err != nil {
		log.Fatal(err)
	}
	pooled, err := out.Pooled()
	if err != nil {
		log.Fatal(err)
	}
	logits, err := head.Apply(pooled)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("head", head.In(), "→", head.Out(), "logits", logits.Shape())
	// Output: head 48 → 2 logits (1, 2)
}

// The backend is chosen per model: the zero Options run on the CPU with
// the build's BLAS (this package's SGEMM, or OpenBLAS with the openblas
// tag); another model of the same program may name another backend, here
// the CPU with gonum's pure-Go BLAS.
func ExampleOptions() {
	be := compute.CPUBackend{BLAS: gonum.Implementation{}}
	fmt.Println(be.Name())
	head, err := encoders.NewLinear([]float32{1, 2, 3, 4}, []float32{0.5, -0.5}, 2, 2, encoders.Options{Backend: be})
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := head.ApplyRows([]float32{1, 1})
	fmt.Println(y, err)
	// Output:
	// cpu/gonum.Implementation
	// [3.5 6.5] <nil>
}
