package tokenize

// IDEncoding is the Encoding of a text with the text's id. Its JSON is the
// id, then the Encoding's members: a line of storyeval tokenize, as
// HuggingFace's tokenizer(...) returns them.
type IDEncoding struct {
	ID string `json:"id"`
	Encoding
}
