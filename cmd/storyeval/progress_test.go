package main

import (
	"bytes"
	"cmp"
	"testing"
)

// TestProgressSetKeepsRunningTotal checks that Set moves the count to a
// running total reported by a library callback, never backwards, and that
// nothing is drawn on a writer that is not a terminal.
func TestProgressSetKeepsRunningTotal(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, 10, "pairs")
	p.Add(2)
	p.Set(5)
	p.Set(3)
	p.Add(1)
	p.Finish()
	if p.done != 6 {
		t.Errorf("done = %d, want 6 (2 added, set to 5, a lower total ignored, 1 added)", p.done)
	}
	if out.Len() != 0 {
		t.Errorf("drew %q on a writer that is not a terminal", out.String())
	}
}

// TestProgressDescribe checks that the bar is labelled with the stage
// given last (score names the metric being computed).
func TestProgressDescribe(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, 10, "steps")
	p.Describe("BLEU-4")
	p.Describe("RoViST-NR")
	if p.desc != "RoViST-NR" || cmp.Or(p.desc, p.what) != "RoViST-NR" {
		t.Errorf("label %q, want RoViST-NR", p.desc)
	}
	var nilBar *progress
	nilBar.Describe("x") // a nil bar ignores it
}
