package main

import (
	"io"

	"github.com/storyeval/storyeval/compare"
)

// scoreBar draws compare's progress on one bar for the whole run, so that
// its time estimate moves during a long neural metric instead of jumping
// once per metric; the bar is labelled with the metric being computed.
type scoreBar struct {
	stderr io.Writer
	bar    *progress
}

// update implements compare.Options.Progress.
func (b *scoreBar) update(p compare.Progress) {
	if b.bar == nil {
		b.bar = newProgress(b.stderr, p.Total, "steps")
	}
	b.bar.Describe(p.Stage)
	b.bar.Set(p.Done)
}

// finish clears the bar, if one was drawn and not yet cleared.
func (b *scoreBar) finish() {
	b.bar.Finish()
	b.bar = nil
}
