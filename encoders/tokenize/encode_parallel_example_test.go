package tokenize_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

// Encode a batch of a larger file padded to the file's longest text (found
// beforehand), and print each encoding as HF's tokenizer(...) returns it.
func ExampleEncodeBatchParallel() {
	bert, err := tokenize.LoadBERT("../../testdata/encoders/fixtures/tokenizers/bert")
	if err != nil {
		log.Fatal(err)
	}
	longest := "A man plays guitar."
	encs, err := tokenize.EncodeBatchParallel(bert, []string{"Café!"}, tokenize.Options{Padding: tokenize.PadLongest}, &longest)
	if err != nil {
		log.Fatal(err)
	}
	line, _ := json.Marshal(encs[0])
	fmt.Println(string(line))
	// Output:
	// {"tokens":["[CLS]","cafe","!","[SEP]","[PAD]","[PAD]","[PAD]"],"input_ids":[101,7668,999,102,0,0,0],"attention_mask":[1,1,1,1,0,0,0],"token_type_ids":[0,0,0,0,0,0,0]}
}
