package imageproc

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"
)

// DefaultDecodeBudget is the memory, in bytes, that NewDecodeBudget(0) lets
// the images of its holders take at once: 1 GiB, room for one image at
// DefaultMaxPixels (0.72 GB by imageCost) and for hundreds of photographs
// of ordinary size, so it slows nothing but the decoding of several huge
// images at once.
const DefaultDecodeBudget int64 = 1 << 30

// DecodeBudget bounds the memory held at once by the images that the
// goroutines sharing it decode and preprocess: each image reserves its cost
// (its encoded bytes plus 4 bytes a pixel for a PNG, 12 for a JPEG: see
// imageCost) from the header, before any pixel is allocated, and gives it
// back when its pixel values are made. Decoding concurrency is so sized by
// pixels, not by a count of images: a budget passes many small images at
// once and one huge image alone. An image that costs more than the whole
// budget waits until the budget is free and then runs alone; the per-image
// cap is DecodeOptions.MaxPixels. Share one budget across everything a
// process decodes to bound the process; a DecodeBudget is safe for
// concurrent use.
type DecodeBudget struct {
	sem  *semaphore.Weighted
	size int64
}

// NewDecodeBudget returns a budget of the given bytes; zero or less means
// DefaultDecodeBudget.
func NewDecodeBudget(bytes int64) *DecodeBudget {
	if bytes <= 0 {
		bytes = DefaultDecodeBudget
	}
	return &DecodeBudget{sem: semaphore.NewWeighted(bytes), size: bytes}
}

// Size returns the budget's bytes.
func (b *DecodeBudget) Size() int64 { return b.size }

// imageCost is what an image of width × height pixels from an encoded file
// of n bytes holds while it is decoded and preprocessed: the encoded bytes
// and, per pixel, for a PNG 3 bytes of RGB and one more for the alpha plane
// or the copy a crop makes; for a JPEG 12 bytes, what the libjpeg port
// allocates in all (component planes, upsampled chroma, RGB; measured on a
// 2000×2000 4:2:0 file). Resize buffers are a fraction of a byte a pixel
// for the downscaling the models do.
func imageCost(format Format, n int64, width, height int) int64 {
	perPixel := int64(4)
	if format == FormatJPEG {
		perPixel = 12
	}
	return n + perPixel*int64(width)*int64(height)
}

// reserve waits until n bytes are free (the whole budget when n is larger)
// and takes them; the returned function gives them back. A nil budget
// reserves nothing.
func (b *DecodeBudget) reserve(ctx context.Context, n int64) (release func(), err error) {
	if b == nil {
		return func() {}, nil
	}
	n = min(max(n, 1), b.size)
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("waiting for %d bytes of the decode budget: %w", n, err)
	}
	return func() { b.sem.Release(n) }, nil
}
