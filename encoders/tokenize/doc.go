// Package tokenize holds the text tokenizers of the neural encoders, written
// to reproduce the HuggingFace transformers 4.29 "slow" (Python) tokenizers
// token for token: BERT WordPiece (bert-base-uncased), ALBERT SentencePiece
// unigram (spiece.model) and CLIP byte-level BPE.
//
// Each family has its own type, loaded from the files a HuggingFace model
// directory holds (vocab.txt, spiece.model, vocab.json + merges.txt,
// tokenizer_config.json, special_tokens_map.json). All three offer the same
// encoding methods through the shared [Encoder] interface: single texts,
// pairs with token type ids, HF truncation strategies and padded batches
// with attention masks.
//
// No third-party tokenizer library is used: none reproduces the reference
// outputs on every case of the fixtures. A tokenizer is
// immutable after loading and safe for concurrent use.
package tokenize
