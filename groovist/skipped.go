package groovist

import (
	"errors"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// SkippedImage is an image whose regions contributed nothing to the
// stories it appears in, and why.
type SkippedImage struct {
	// ID is the image's id (ImageStatus.ID).
	ID string
	// Stories is the number of results in which the image appears.
	Stories int
	// TooLarge is true when the image, or one of its crops, has more
	// pixels than the decode limit (Scorer.Decode.MaxPixels): the error
	// wraps imageproc.ErrTooManyPixels.
	TooLarge bool
	// Err is why (ImageStatus.Err): it names the file and, for a pixel
	// limit, its dimensions.
	Err error
}

// Skipped lists the images of results that failed (ImageStatus.Err set),
// each once, in order of first appearance. Matches the reference
// implementation, which skips such an image (it catches the exception and
// leaves the image's alignment row at 0) without saying so: the scores are
// the reference's, and this list is what a caller reports, e.g. images
// over the pixel limit that a larger -max-image-pixels would have used.
func Skipped(results []Result) []SkippedImage {
	var out []SkippedImage
	index := map[string]int{}
	for _, r := range results {
		for _, im := range r.Images {
			if im.Err == nil {
				continue
			}
			if i, ok := index[im.ID]; ok {
				out[i].Stories++
				continue
			}
			index[im.ID] = len(out)
			out = append(out, SkippedImage{ID: im.ID, Stories: 1, TooLarge: errors.Is(im.Err, imageproc.ErrTooManyPixels), Err: im.Err})
		}
	}
	return out
}
