package rovist

import "sync"

// progressCounter serialises the calls of an options' Progress callback.
type progressCounter struct {
	mu     sync.Mutex
	done   int
	total  int
	report func(done, total int)
}

func (p *progressCounter) add(n int) {
	if p.report == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.report(p.done, p.total)
}
