package tokenize

import "fmt"

// TooShortError is EncodeIDs's error for a text that MaxLength truncation
// leaves longer than MaxLength: the special tokens alone need more.
// HuggingFace's tokenizer, asked that, logs an error and returns the text
// untruncated; EncodeIDs says so rather than return it without a word.
type TooShortError struct {
	// ID is the text's id, Len its length after truncation.
	ID  string
	Len int
}

// Error names the text and its length.
func (e *TooShortError) Error() string {
	return fmt.Sprintf("text %q: max length too short to truncate to: %d tokens remain", e.ID, e.Len)
}

// EncodeIDs is EncodeBatchParallel of texts, each encoding with the id
// of the same index in ids. A text left longer than opt.MaxLength by
// truncation is a *TooShortError, returned with the encodings before it.
func EncodeIDs(enc Encoder, ids, texts []string, opt Options, padAlong *string) ([]IDEncoding, error) {
	encs, err := EncodeBatchParallel(enc, texts, opt, padAlong)
	if err != nil {
		return nil, err
	}
	out := make([]IDEncoding, len(ids))
	for i, id := range ids {
		if opt.MaxLength > 0 && opt.Truncation != NoTruncation && encs[i].Len() > opt.MaxLength {
			return out[:i], &TooShortError{ID: id, Len: encs[i].Len()}
		}
		out[i] = IDEncoding{ID: id, Encoding: encs[i]}
	}
	return out, nil
}

// Longest finds, over texts given a part at a time (the batches of a
// file), the text whose encoding, truncated as the options say and
// unpadded, is the longest, the first of them on a tie: the padAlong with
// which EncodeBatchParallel pads each part as one batch of all would be.
// The zero value has seen no text; Text is then empty.
type Longest struct {
	Text string
	len  int
	seen bool
}

// Add encodes texts with enc and opt (Padding ignored) and keeps the
// longest; an error names the text, whose id is the one of the same
// index in ids.
func (l *Longest) Add(enc Encoder, ids, texts []string, opt Options) error {
	opt.Padding = NoPadding
	for i, text := range texts {
		e, err := enc.EncodeWith(text, opt)
		if err != nil {
			return fmt.Errorf("text %q: %w", ids[i], err)
		}
		if !l.seen || e.Len() > l.len {
			l.Text, l.len, l.seen = text, e.Len(), true
		}
	}
	return nil
}
