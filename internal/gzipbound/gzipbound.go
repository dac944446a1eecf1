// Package gzipbound reads gzip streams whose decompressed size is bounded
// by a ratio of the compressed bytes read so far, so that a small file of
// compressed zeros (a decompression bomb) fails after a few megabytes
// instead of filling memory. An absolute cap alone does not do that: with
// a 4 GiB cap, a 4 MB file could still expand to 4 GiB before failing.
package gzipbound

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Defaults of Options. Text and the binary tables this module writes
// compress 3 to 20 times; gzip's DEFLATE reaches about 1,030 times only on
// degenerate input such as runs of one byte.
const (
	DefaultRatio = 200
	DefaultSlack = 16 << 20
)

// ErrTooLarge is wrapped by the error a Reader returns when the stream
// expands beyond its bound.
var ErrTooLarge = errors.New("gzip stream expands beyond its bound")

// Options bounds a Reader. The zero value allows DefaultRatio decompressed
// bytes per compressed byte read, plus DefaultSlack, with no absolute cap.
type Options struct {
	// Ratio is the allowed decompressed bytes per compressed byte
	// (0: DefaultRatio).
	Ratio int64
	// Slack is allowed on top of Ratio times the compressed bytes, so that
	// small, well-compressed files pass (0: DefaultSlack).
	Slack int64
	// Max, when positive, caps the decompressed bytes whatever the ratio.
	Max int64
}

// Reader decompresses a gzip stream within the bounds of its Options.
type Reader struct {
	in    countingReader
	zr    *gzip.Reader
	opts  Options
	out   int64
	fault error
}

// NewReader starts reading the gzip stream r.
func NewReader(r io.Reader, opts Options) (*Reader, error) {
	if opts.Ratio <= 0 {
		opts.Ratio = DefaultRatio
	}
	if opts.Slack <= 0 {
		opts.Slack = DefaultSlack
	}
	b := &Reader{in: countingReader{r: r}, opts: opts}
	zr, err := gzip.NewReader(&b.in)
	if err != nil {
		return nil, err
	}
	b.zr = zr
	return b, nil
}

// Read implements io.Reader. Once the decompressed bytes exceed Max, or
// Ratio times the compressed bytes read plus Slack, it returns an error
// wrapping ErrTooLarge.
func (b *Reader) Read(p []byte) (int, error) {
	if b.fault != nil {
		return 0, b.fault
	}
	n, err := b.zr.Read(p)
	b.out += int64(n)
	if b.opts.Max > 0 && b.out > b.opts.Max {
		b.fault = fmt.Errorf("%w: more than %d bytes decompressed", ErrTooLarge, b.opts.Max)
		return n, b.fault
	}
	if limit := b.opts.Ratio*b.in.n + b.opts.Slack; b.out > limit {
		b.fault = fmt.Errorf("%w: %d bytes from %d compressed bytes is more than %d times expansion (a decompression bomb?)", ErrTooLarge, b.out, b.in.n, b.opts.Ratio)
		return n, b.fault
	}
	return n, err
}

// Close closes the gzip reader (not the underlying reader).
func (b *Reader) Close() error { return b.zr.Close() }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
