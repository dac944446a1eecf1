package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long a run goes before its progress bar appears:
// short runs print nothing extra.
const progressDelay = time.Second

// progress reports how far a long-running subcommand has got, with the
// items per second and the time left, on stderr. It draws only when stderr
// is a terminal and only once the run has lasted progressDelay, so piped
// output and quick runs stay clean. It is safe for concurrent use.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	what  string
	desc  string // what is being done now; what when ""
	start time.Time
	done  int
	bar   *progressbar.ProgressBar // nil until drawn
	quiet bool
}

// newProgress starts a progress report for total items of the given kind
// ("stories", "pairs", …) written to stderr.
func newProgress(stderr io.Writer, total int, what string) *progress {
	return &progress{w: stderr, total: total, what: what, start: time.Now(), quiet: !isTerminal(stderr)}
}

// Add records n more finished items.
func (p *progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.addLocked(n)
}

// addLocked is Add with p.mu held.
func (p *progress) addLocked(n int) {
	p.done += n
	if p.quiet {
		return
	}
	if p.bar == nil {
		if time.Since(p.start) < progressDelay {
			return
		}
		p.bar = progressbar.NewOptions(p.total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(cmpOr(p.desc, p.what)),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString(p.what),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		_ = p.bar.Set(p.done)
		return
	}
	_ = p.bar.Add(n)
}

// Set records that done items are finished in all, for library callbacks
// that report a running total; a total below the one recorded is ignored.
func (p *progress) Set(done int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done > p.done {
		p.addLocked(done - p.done)
	}
}

// Describe names what is being done now (a metric's name), shown before
// the bar in place of the kind of items counted.
func (p *progress) Describe(desc string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if desc == p.desc {
		return
	}
	p.desc = desc
	if p.bar != nil {
		p.bar.Describe(desc)
	}
}

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Finish clears the bar, if one was drawn.
func (p *progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// interruptContext returns a context cancelled by Ctrl-C (SIGINT) or
// SIGTERM, so that long runs stop cleanly and write no partial output.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
