package groovist

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/errtext"
)

// String says which image was skipped, in how many stories, and why: the
// warning line `storyeval groovist` and `score` print for it.
func (s SkippedImage) String() string {
	stories := "1 story"
	if s.Stories != 1 {
		stories = fmt.Sprintf("%d stories", s.Stories)
	}
	return fmt.Sprintf("image %s skipped in %s, scored as the reference does (alignment 0): %v", errtext.Quote(s.ID), stories, s.Err)
}
