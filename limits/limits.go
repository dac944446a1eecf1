// Package limits holds the bound that every storyeval reader of untrusted
// input takes in its options, and the error it fails with when an input
// goes past it.
//
// A zero field means the reader's documented default: readers differ in
// what a legitimate input weighs (a story set, a 60 MB regions file, an
// 8 GB GloVe file), so the defaults live with them, and a caller sets only
// what it wants to change.
package limits

import (
	"fmt"
	"io"
	"math"
)

// Limits bounds one input of a reader. The zero value means the reader's
// defaults. It is a small value type: copy it freely.
type Limits struct {
	// MaxBytes bounds the bytes read from one file or stream (0: the
	// reader's default; the input may be exactly MaxBytes long).
	MaxBytes int64
	// MaxLineBytes bounds one line of a line-oriented input, such as a
	// GloVe file (0: the reader's default). Readers of other formats
	// ignore it.
	MaxLineBytes int
}

// Bytes returns MaxBytes, or def when MaxBytes is not positive.
func (l Limits) Bytes(def int64) int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return def
}

// LineBytes returns MaxLineBytes, or def when MaxLineBytes is not positive.
func (l Limits) LineBytes(def int) int {
	if l.MaxLineBytes > 0 {
		return l.MaxLineBytes
	}
	return def
}

// TooLargeError reports an input longer than its bound. A caller that
// trusts the input can retry with a larger Limits.
type TooLargeError struct {
	// Name labels the input (usually its path); it is empty when the
	// error is wrapped in one that names the input, such as a
	// story.ParseError.
	Name string
	// Limit is the bound that was exceeded, in bytes.
	Limit int64
	// Line reports that the bound was Limits.MaxLineBytes (one line of
	// the input), not Limits.MaxBytes.
	Line bool
}

// Error says what was exceeded, after the input's name when there is one.
func (e *TooLargeError) Error() string {
	what := fmt.Sprintf("more than %d bytes", e.Limit)
	if e.Line {
		what = fmt.Sprintf("a line longer than %d bytes", e.Limit)
	}
	if e.Name == "" {
		return what
	}
	return e.Name + ": " + what
}

// Reader reads at most limit+1 bytes of r, so that Exceeded can tell an
// input of exactly limit bytes from a longer one. It is not safe for
// concurrent use (neither is the io.Reader it wraps).
type Reader struct {
	lr    io.LimitedReader
	name  string
	limit int64
}

// NewReader returns a Reader of r bounded by limit bytes; name labels the
// error.
func NewReader(r io.Reader, name string, limit int64) *Reader {
	n := limit + 1
	if limit == math.MaxInt64 {
		n = limit // no input is that long; keep N positive
	}
	return &Reader{lr: io.LimitedReader{R: r, N: n}, name: name, limit: limit}
}

// Read implements io.Reader. Once more than the limit has been read it
// returns the *TooLargeError, so that a decoder stops with it rather than
// with a truncated input's syntax error.
func (r *Reader) Read(p []byte) (int, error) {
	if r.lr.N <= 0 {
		return 0, r.Err()
	}
	n, err := r.lr.Read(p)
	if r.lr.N <= 0 {
		// The extra byte read is past the limit: hide it and fail.
		if n > 0 {
			n--
		}
		return n, r.Err()
	}
	return n, err
}

// Exceeded reports whether more than the limit was read.
func (r *Reader) Exceeded() bool { return r.lr.N <= 0 }

// Err returns the *TooLargeError of this input.
func (r *Reader) Err() error { return &TooLargeError{Name: r.name, Limit: r.limit} }
