package main

// scoreProgress maps the progress a library call reports (done of total
// encoder batches, crops or pairs) onto score's one bar for the whole run,
// so that its time estimate moves during a long neural metric instead of
// jumping once per metric. Each metric owns systems × stories units of the
// bar and each system's call of it stories units; the zero value reports
// nothing.
type scoreProgress struct {
	bar *progress
	// base is the bar's count when the metric started; stories the
	// suite's sequences; systems the number of systems and system the
	// index of the one being scored.
	base, stories, systems, system int
}

// System reports done of total for the current system's call.
func (p scoreProgress) System(done, total int) {
	if total > 0 {
		p.bar.Set(p.base + p.system*p.stories + p.stories*done/total)
	}
}

// All reports done of total for a call that scores every system's stories
// at once (the first system's call of a metric that shares encoder work).
func (p scoreProgress) All(done, total int) {
	if total > 0 {
		p.bar.Set(p.base + p.systems*p.stories*done/total)
	}
}

// systemDone moves the bar to the end of the current system's share.
func (p scoreProgress) systemDone() { p.bar.Set(p.base + (p.system+1)*p.stories) }
