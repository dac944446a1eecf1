package tokenize

import (
	"fmt"
	"math"
)

// Truncation selects how a sequence or pair longer than the maximum length
// is shortened, with the semantics of HuggingFace's TruncationStrategy.
type Truncation int

const (
	// NoTruncation keeps every token (HF "do_not_truncate").
	NoTruncation Truncation = iota
	// LongestFirst removes tokens one at a time from the end of the longer
	// sequence of a pair, the second one on ties (HF "longest_first").
	LongestFirst
	// OnlyFirst removes tokens from the end of the first sequence only
	// (HF "only_first").
	OnlyFirst
	// OnlySecond removes tokens from the end of the second sequence of a pair
	// only (HF "only_second").
	OnlySecond
)

// String returns the HuggingFace name of the strategy.
func (t Truncation) String() string {
	switch t {
	case NoTruncation:
		return "do_not_truncate"
	case LongestFirst:
		return "longest_first"
	case OnlyFirst:
		return "only_first"
	case OnlySecond:
		return "only_second"
	}
	return fmt.Sprintf("Truncation(%d)", int(t))
}

// ParseTruncation returns the strategy with the given HuggingFace name
// ("longest_first", "only_first", "only_second", "do_not_truncate").
func ParseTruncation(name string) (Truncation, error) {
	for t := NoTruncation; t <= OnlySecond; t++ {
		if t.String() == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown truncation strategy %q", name)
}

// Padding selects how the sequences of a batch are padded.
type Padding int

const (
	// NoPadding leaves every sequence at its own length.
	NoPadding Padding = iota
	// PadLongest pads every sequence to the longest one of the batch
	// (HF padding="longest").
	PadLongest
	// PadMaxLength pads every sequence to Options.MaxLength
	// (HF padding="max_length").
	PadMaxLength
)

// Options controls truncation and padding.
type Options struct {
	// Truncation is the truncation strategy; NoTruncation by default.
	Truncation Truncation
	// MaxLength is the length, special tokens included, that truncation and
	// PadMaxLength aim at. Zero means the tokenizer's ModelMaxLength, as HF
	// does when max_length is None.
	MaxLength int
	// Padding is the batch padding strategy (batches only; padding is on
	// the right, as every tokenizer of the fixtures configures it).
	Padding Padding
}

// maxLength resolves the zero MaxLength to the model maximum; ok is false
// when neither gives a length. Matches the reference implementation, which
// neither truncates nor pads to max_length when max_length is None and the
// model_max_length is "infinite" (HF writes 1e30; loading caps it at
// math.MaxInt32).
func (o Options) maxLength(modelMax int) (n int, ok bool) {
	if o.MaxLength > 0 {
		return o.MaxLength, true
	}
	return modelMax, modelMax < math.MaxInt32
}

// MaxSequenceLength bounds Options.MaxLength, so that a mistyped length
// cannot make PadMaxLength allocate gigabytes.
const MaxSequenceLength = 1 << 24

// validate reports options that make no sense.
func (o Options) validate() error {
	if o.MaxLength < 0 {
		return fmt.Errorf("negative MaxLength %d", o.MaxLength)
	}
	if o.MaxLength > MaxSequenceLength {
		return fmt.Errorf("MaxLength %d above the limit of %d", o.MaxLength, MaxSequenceLength)
	}
	if o.Truncation < NoTruncation || o.Truncation > OnlySecond {
		return fmt.Errorf("unknown truncation strategy %d", int(o.Truncation))
	}
	if o.Padding < NoPadding || o.Padding > PadMaxLength {
		return fmt.Errorf("unknown padding strategy %d", int(o.Padding))
	}
	return nil
}
