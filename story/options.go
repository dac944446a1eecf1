package story

// DefaultMaxBytes bounds an input file when ReadOptions.MaxBytes is zero, so
// that a wrong path (a checkpoint, a device) fails fast instead of
// exhausting memory.
const DefaultMaxBytes = 1 << 30

// ReadOptions controls the readers. The zero value reads as the reference
// scripts do.
type ReadOptions struct {
	// MaxBytes bounds the input size; 0 means DefaultMaxBytes.
	MaxBytes int64
	// RejectBlank makes a story whose text is empty or only white space an
	// error. By default it is kept: the reference metrics define it (RoViST
	// reports NaN), so it is the metric's call.
	RejectBlank bool
	// OriginalText makes the VIST reader use each sentence's original_text
	// (mixed case, untokenized) instead of text (lower-cased, tokenized),
	// which is what the published VIST evaluations score.
	OriginalText bool
}

func (o ReadOptions) maxBytes() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}
