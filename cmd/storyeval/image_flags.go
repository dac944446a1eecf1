package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// imageFlags are the image-decoding bounds of the commands that read image
// files (clipscore, groovist, rovist, imageproc).
type imageFlags struct {
	maxPixels int64 // -max-image-pixels
	memoryMiB int64 // -image-memory
}

// addImageFlags defines -max-image-pixels and -image-memory on fs.
func addImageFlags(fs *flag.FlagSet) *imageFlags {
	f := &imageFlags{}
	fs.Int64Var(&f.maxPixels, "max-image-pixels", imageproc.DefaultMaxPixels,
		"refuse an image of more pixels (default: the size above which Pillow raises DecompressionBombError)")
	fs.Int64Var(&f.memoryMiB, "image-memory", imageproc.DefaultDecodeBudget>>20,
		"MiB of decoded images held at once by the whole run (an image costs its file plus 4 bytes a pixel, 12 for a JPEG; images wait for room, one larger than this runs alone)")
	return f
}

// options returns the decode options of the flags, with one budget for
// the whole process.
func (f *imageFlags) options() (imageproc.DecodeOptions, error) {
	if f.maxPixels <= 0 {
		return imageproc.DecodeOptions{}, fmt.Errorf("-max-image-pixels %d: want a positive number", f.maxPixels)
	}
	if f.memoryMiB <= 0 || f.memoryMiB > 1<<40 {
		return imageproc.DecodeOptions{}, fmt.Errorf("-image-memory %d: want a positive number of MiB", f.memoryMiB)
	}
	return imageproc.DecodeOptions{MaxPixels: f.maxPixels, Budget: imageproc.NewDecodeBudget(f.memoryMiB << 20)}, nil
}

// imageError adds the flag that raises the pixel limit to an error caused
// by it.
func imageError(err error) error {
	if errors.Is(err, imageproc.ErrTooManyPixels) {
		return fmt.Errorf("%w (raise the limit with -max-image-pixels)", err)
	}
	return err
}

// boundHeap bounds the heap to the models plus the decode budget while
// images are decoded (see imageproc.BoundHeap).
func boundHeap(opts imageproc.DecodeOptions) (restore func()) {
	return imageproc.BoundHeap(opts.Budget)
}
