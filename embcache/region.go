package embcache

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// DecodeRegion describes, for ImageInput.Region, how the pixels are taken
// from a source file: the decoding options and, when box is not nil, the
// crop box. The memory Budget (a pointer that only makes images wait for
// room) is left out. The limits are kept, with zero written as the default
// it stands for: an image refused under one limit must not be served from
// an entry stored under a raised one, so a cached run fails where an
// uncached one would. Any other option is kept too (a new one costs a
// miss, never a wrong hit).
func DecodeRegion(opts imageproc.DecodeOptions, box *imageproc.Box) string {
	opts.Budget = nil
	if opts.MaxPixels <= 0 {
		opts.MaxPixels = imageproc.DefaultMaxPixels
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = imageproc.DefaultMaxBytes
	}
	if opts.MaxPixelsPerByte <= 0 {
		opts.MaxPixelsPerByte = imageproc.DefaultMaxPixelsPerByte
	}
	if box == nil {
		return fmt.Sprintf("decode %#v", opts)
	}
	return fmt.Sprintf("decode %#v box %#v", opts, *box)
}
