package tokenize

// The encoding methods every family shares, delegating to its pipeline.

// Encode encodes text as [CLS] tokens [SEP], untruncated.
func (t *BERT) Encode(text string) Encoding {
	e, _ := t.pipe.encode(text, "", false, Options{})
	return e
}

// EncodePair encodes a pair of texts with the family's special tokens and
// type ids, untruncated.
func (t *BERT) EncodePair(a, b string) Encoding {
	e, _ := t.pipe.encode(a, b, true, Options{})
	return e
}

// EncodeWith encodes one text, truncated as opt says.
func (t *BERT) EncodeWith(text string, opt Options) (Encoding, error) {
	return t.pipe.encode(text, "", false, opt)
}

// EncodePairWith encodes a pair of texts, truncated as opt says.
func (t *BERT) EncodePairWith(a, b string, opt Options) (Encoding, error) {
	return t.pipe.encode(a, b, true, opt)
}

// EncodeBatch encodes texts, truncated and padded as opt says.
func (t *BERT) EncodeBatch(texts []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(texts, nil, false, opt)
}

// EncodePairBatch encodes the pairs (a[i], b[i]), truncated and padded as
// opt says.
func (t *BERT) EncodePairBatch(a, b []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(a, b, true, opt)
}

// ModelMaxLength returns model_max_length from tokenizer_config.json.
func (t *BERT) ModelMaxLength() int { return t.pipe.modelMax }

// Encode encodes text as [CLS] tokens [SEP], untruncated.
func (t *ALBERT) Encode(text string) Encoding {
	e, _ := t.pipe.encode(text, "", false, Options{})
	return e
}

// EncodePair encodes a pair of texts with the family's special tokens and
// type ids, untruncated.
func (t *ALBERT) EncodePair(a, b string) Encoding {
	e, _ := t.pipe.encode(a, b, true, Options{})
	return e
}

// EncodeWith encodes one text, truncated as opt says.
func (t *ALBERT) EncodeWith(text string, opt Options) (Encoding, error) {
	return t.pipe.encode(text, "", false, opt)
}

// EncodePairWith encodes a pair of texts, truncated as opt says.
func (t *ALBERT) EncodePairWith(a, b string, opt Options) (Encoding, error) {
	return t.pipe.encode(a, b, true, opt)
}

// EncodeBatch encodes texts, truncated and padded as opt says.
func (t *ALBERT) EncodeBatch(texts []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(texts, nil, false, opt)
}

// EncodePairBatch encodes the pairs (a[i], b[i]), truncated and padded as
// opt says.
func (t *ALBERT) EncodePairBatch(a, b []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(a, b, true, opt)
}

// ModelMaxLength returns model_max_length from tokenizer_config.json.
func (t *ALBERT) ModelMaxLength() int { return t.pipe.modelMax }

// Encode encodes text as <|startoftext|> tokens <|endoftext|>, untruncated.
func (t *CLIP) Encode(text string) Encoding {
	e, _ := t.pipe.encode(text, "", false, Options{})
	return e
}

// EncodePair encodes a pair of texts with the family's special tokens and
// type ids, untruncated.
func (t *CLIP) EncodePair(a, b string) Encoding {
	e, _ := t.pipe.encode(a, b, true, Options{})
	return e
}

// EncodeWith encodes one text, truncated as opt says.
func (t *CLIP) EncodeWith(text string, opt Options) (Encoding, error) {
	return t.pipe.encode(text, "", false, opt)
}

// EncodePairWith encodes a pair of texts, truncated as opt says.
func (t *CLIP) EncodePairWith(a, b string, opt Options) (Encoding, error) {
	return t.pipe.encode(a, b, true, opt)
}

// EncodeBatch encodes texts, truncated and padded as opt says.
func (t *CLIP) EncodeBatch(texts []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(texts, nil, false, opt)
}

// EncodePairBatch encodes the pairs (a[i], b[i]), truncated and padded as
// opt says.
func (t *CLIP) EncodePairBatch(a, b []string, opt Options) ([]Encoding, error) {
	return t.pipe.encodeBatch(a, b, true, opt)
}

// ModelMaxLength returns model_max_length from tokenizer_config.json.
func (t *CLIP) ModelMaxLength() int { return t.pipe.modelMax }
