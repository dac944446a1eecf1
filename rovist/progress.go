package rovist

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

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

// checkText rejects text that is not valid UTF-8, which NLTK could not
// have read either.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("story text is not valid UTF-8")
	}
	return nil
}
