package story

import "github.com/storyeval/storyeval/limits"

// defaultMaxBytes bounds an input file when ReadOptions.Limits.MaxBytes is
// zero, so that a wrong path (a checkpoint, a device) fails fast instead of
// exhausting memory.
const defaultMaxBytes = 1 << 30

// ReadOptions controls the readers. The zero value reads as the reference
// scripts do.
type ReadOptions struct {
	// Limits bounds the input: MaxBytes 0 means 1 GiB. An input over it
	// fails with a *ParseError wrapping a *limits.TooLargeError.
	Limits limits.Limits
	// RejectBlank makes a story whose text is empty or only white space an
	// error. By default it is kept: the reference metrics define it (RoViST
	// reports NaN), so it is the metric's call.
	RejectBlank bool
	// OriginalText makes the VIST reader use each sentence's original_text
	// (mixed case, untokenized) instead of text (lower-cased, tokenized),
	// which is what the published VIST evaluations score.
	OriginalText bool
}

func (o ReadOptions) maxBytes() int64 { return o.Limits.Bytes(defaultMaxBytes) }

// tooLarge is the error of an input named name over the options' limit.
func (o ReadOptions) tooLarge(name string) error {
	return &ParseError{File: name, Err: &limits.TooLargeError{Limit: o.maxBytes()}}
}
