package main

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/internal/errtext"
)

// maxSkipWarnings is how many skipped images are named one per line
// before the rest are only counted.
const maxSkipWarnings = 10

// warnSkippedImages prints one warning line per image that GROOViST
// skipped (the reference skips them silently; their alignment is 0), the
// first maxSkipWarnings of them, then how many more there were.
// (groovist.Skipped lists them from the results.)
func warnSkippedImages(stderr io.Writer, name string, skipped []groovist.SkippedImage) {
	for i, s := range skipped {
		if i == maxSkipWarnings {
			fmt.Fprintf(stderr, "storyeval %s: warning: %d more images skipped (the \"error\" of each image in the JSON output says why)\n", name, len(skipped)-i)
			return
		}
		hint := ""
		if s.TooLarge {
			hint = " (raise the limit with -max-image-pixels)"
		}
		stories := "1 story"
		if s.Stories != 1 {
			stories = fmt.Sprintf("%d stories", s.Stories)
		}
		fmt.Fprintf(stderr, "storyeval %s: warning: image %s skipped in %s, scored as the reference does (alignment 0): %s%s\n",
			name, errtext.Quote(s.ID), stories, s.Err, hint)
	}
}
