package tokenize_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/tokenize"
)

// The JSON of an IDEncoding: the id, then HuggingFace's field names.
func ExampleIDEncoding() {
	e := tokenize.IDEncoding{ID: "t1", Encoding: tokenize.Encoding{
		Tokens: []string{"[CLS]", "hi", "[SEP]"}, IDs: []int{101, 7632, 102}, AttentionMask: []int{1, 1, 1}, TypeIDs: []int{0, 0, 0}}}
	b, err := json.Marshal(e)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"id":"t1","tokens":["[CLS]","hi","[SEP]"],"input_ids":[101,7632,102],"attention_mask":[1,1,1],"token_type_ids":[0,0,0]}
}
