package tokenize

// Encoding is one text, or one pair of texts, encoded as model inputs.
// All four slices have the same length. It marshals to JSON as the
// dictionary HF's tokenizer(...) returns, with the tokens first.
type Encoding struct {
	// Tokens are the vocabulary strings of IDs (HF convert_ids_to_tokens):
	// a piece outside the vocabulary shows as the unknown token.
	Tokens []string `json:"tokens"`
	// IDs are the vocabulary ids (HF input_ids), special tokens included.
	IDs []int `json:"input_ids"`
	// AttentionMask is 1 for real tokens and 0 for padding.
	AttentionMask []int `json:"attention_mask"`
	// TypeIDs are the segment ids (HF token_type_ids): 0 for the first
	// text, 1 for the second text of a BERT or ALBERT pair.
	TypeIDs []int `json:"token_type_ids"`
}

// Len returns the number of positions of the encoding.
func (e Encoding) Len() int { return len(e.IDs) }

// Encoder is what the three tokenizer families have in common.
type Encoder interface {
	// Tokenize splits text into vocabulary tokens, without special tokens
	// other than those written in the text itself.
	Tokenize(text string) []string
	// Encode encodes one text with its special tokens, untruncated.
	Encode(text string) Encoding
	// EncodePair encodes a pair of texts with its special tokens and type
	// ids, untruncated.
	EncodePair(a, b string) Encoding
	// EncodeWith encodes one text with truncation (padding applies to
	// batches only).
	EncodeWith(text string, opt Options) (Encoding, error)
	// EncodePairWith encodes a pair with truncation.
	EncodePairWith(a, b string, opt Options) (Encoding, error)
	// EncodeBatch encodes texts with truncation and padding.
	EncodeBatch(texts []string, opt Options) ([]Encoding, error)
	// EncodePairBatch encodes the pairs (a[i], b[i]) with truncation and
	// padding.
	EncodePairBatch(a, b []string, opt Options) ([]Encoding, error)
	// Decode turns ids back into text as HF's decode with
	// skip_special_tokens=True and the config's clean-up of spaces.
	Decode(ids []int) (string, error)
	// TokenID returns the id of a vocabulary token.
	TokenID(token string) (id int, ok bool)
	// Token returns the vocabulary token of an id, "" when out of range.
	Token(id int) string
	// VocabSize returns the number of ids.
	VocabSize() int
	// ModelMaxLength returns the model_max_length of tokenizer_config.json.
	ModelMaxLength() int
}
