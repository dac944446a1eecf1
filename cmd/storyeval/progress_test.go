package main

import (
	"bytes"
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

// TestScoreProgressMapsCallsOntoTheRunsBar checks how a metric's library
// progress lands on score's bar: a metric owns systems × stories units
// after base, a system's call its own stories units.
func TestScoreProgressMapsCallsOntoTheRunsBar(t *testing.T) {
	bar := newProgress(&bytes.Buffer{}, 100, "steps")
	p := scoreProgress{bar: bar, base: 24, stories: 4, systems: 3, system: 1}
	for _, c := range []struct {
		report      func(done, total int)
		done, total int
		want        int
	}{
		{p.System, 0, 8, 24 + 4},  // system 1 starting: system 0's share is behind it
		{p.System, 4, 8, 24 + 6},  // half of system 1: its share starts at 24+4
		{p.System, 8, 8, 24 + 8},  // system 1 complete
		{p.All, 9, 12, 24 + 9},    // 3/4 of the whole metric (12 units)
		{p.System, 1, 0, 24 + 9},  // an empty call reports nothing
		{p.All, 12, 12, 24 + 12},  // the metric complete
		{p.System, 2, 8, 24 + 12}, // never backwards
	} {
		c.report(c.done, c.total)
		if bar.done != c.want {
			t.Fatalf("after %d of %d: bar at %d, want %d", c.done, c.total, bar.done, c.want)
		}
	}
	q := scoreProgress{bar: bar, base: 36, stories: 4, systems: 3, system: 2}
	q.systemDone()
	if bar.done != 36+12 {
		t.Errorf("system 2 done: bar at %d, want %d", bar.done, 36+12)
	}
	var zero scoreProgress
	zero.System(1, 2) // the zero value reports nothing and does not panic
	zero.All(1, 2)
}
