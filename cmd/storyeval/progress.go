package main

import (
	"cmp"
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/storyeval/storyeval/compare"
)

const progressDelay = time.Second // before a bar appears: quick runs print none

// progress reports on stderr how far a long subcommand has got, with the
// items per second and the time left. It draws only on a terminal and only
// once the run has lasted progressDelay, so piped output and quick runs
// stay clean. It is safe for concurrent use; a nil *progress ignores calls.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	total, done int
	what, desc  string // kind of items counted; what is being done now
	start       time.Time
	bar         *progressbar.ProgressBar // nil until drawn
	quiet       bool
}

// newProgress reports on stderr about total items of a kind ("pairs", …).
func newProgress(stderr io.Writer, total int, what string) *progress {
	quiet := true
	if f, ok := stderr.(*os.File); ok {
		st, err := f.Stat()
		quiet = err != nil || st.Mode()&os.ModeCharDevice == 0
	}
	return &progress{w: stderr, total: total, what: what, start: time.Now(), quiet: quiet}
}

// locked runs f with p.mu held; a nil *progress ignores every call.
func (p *progress) locked(f func()) {
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		f()
	}
}

// Add records n more finished items.
func (p *progress) Add(n int) { p.locked(func() { p.addLocked(n) }) }

// Set records a running total of done items; a lower total is ignored.
func (p *progress) Set(done int) {
	p.locked(func() {
		if done > p.done {
			p.addLocked(done - p.done)
		}
	})
}

func (p *progress) addLocked(n int) {
	if p.done += n; p.quiet {
		return
	}
	if p.bar != nil {
		_ = p.bar.Add(n)
		return
	}
	if time.Since(p.start) >= progressDelay {
		p.bar = progressbar.NewOptions(p.total, progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(cmp.Or(p.desc, p.what)), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString(p.what),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
		_ = p.bar.Set(p.done)
	}
}

// Describe names what is being done now, shown before the bar.
func (p *progress) Describe(desc string) {
	p.locked(func() {
		if desc != p.desc && p.bar != nil {
			p.bar.Describe(desc)
		}
		p.desc = desc
	})
}

// stage implements compare.Options.Progress: one bar for the whole run,
// whose time estimate moves within a long metric, labelled with the metric.
func (p *progress) stage(s compare.Progress) {
	p.locked(func() { p.total = s.Total })
	p.Describe(s.Stage)
	p.Set(s.Done)
}

// Finish clears the bar, if one was drawn; later calls draw nothing.
func (p *progress) Finish() {
	p.locked(func() {
		if p.bar != nil {
			_ = p.bar.Finish()
		}
		p.bar, p.quiet = nil, true
	})
}

// interruptContext returns a context cancelled by Ctrl-C (SIGINT) or
// SIGTERM, so that long runs stop cleanly and write no partial output.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
