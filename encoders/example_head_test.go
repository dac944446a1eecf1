package encoders_test

import (
	"context"
	"fmt"
	"log"
	"reflect"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
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
	if err := encoders.ReadConfig(dir+"albert-large-v1", &cfg); err != nil {
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

// Importing encoders leaves gorgonia's BLAS alone; a program picks one with
// UseBLAS or UseDefaultBLAS, or the first model it builds installs
// DefaultBLAS (this package's SGEMM, or OpenBLAS with the openblas tag).
func ExampleUseDefaultBLAS() {
	encoders.UseDefaultBLAS()
	fmt.Println(reflect.TypeOf(tensor.WhichBLAS()) == reflect.TypeOf(encoders.DefaultBLAS()))
	// Output: true
}
