package embcache

import "fmt"

// Session is a Store opened for one run of a program that must not fail
// because of its cache, as the storyeval commands: its Lenient turns a
// failed read into a miss and drops a failed write, and the note function
// hears, in one line each, that the store was rebuilt, its first failure,
// and at End how many embeddings the cache gave.
type Session struct {
	*Lenient
	note          func(string)
	rebuiltAtOpen string
}

// OpenSession opens the store in dir (OpenDir, "" for DefaultDir) for one
// run; the error is Open's (the store held by another process past
// opts.LockTimeout, an unwritable folder), after which the run goes on
// without a cache. note receives the session's lines.
func OpenSession(dir string, opts Options, note func(string)) (*Session, error) {
	st, err := OpenDir(dir, opts)
	if err != nil {
		return nil, err
	}
	s := &Session{note: note, rebuiltAtOpen: st.Rebuilt()}
	s.Lenient = &Lenient{Store: st, OnError: func(err error) { note(fmt.Sprintf("embedding cache: %v (going on without it)", err)) }}
	if s.rebuiltAtOpen != "" {
		note("embedding cache rebuilt: " + s.rebuiltAtOpen)
	}
	return s, nil
}

// End notes a rebuild since OpenSession and, after a run that succeeded
// and looked embeddings up, how many came from the cache ("N of M image
// embeddings, K of L text embeddings from the cache PATH (P encoded and
// stored)", see Stats.FromCache); a failed run's only line is its error.
// Then it closes the store.
func (s *Session) End(succeeded bool) {
	if why := s.Store.Rebuilt(); why != "" && why != s.rebuiltAtOpen {
		s.note("embedding cache rebuilt: " + why)
	}
	if st, err := s.Store.Stats(); err == nil && succeeded && st.Hits+st.Misses > 0 {
		s.note(fmt.Sprintf("%s from the cache %s (%d encoded and stored)", st.FromCache(), s.Store.Path(), st.Puts))
	}
	if err := s.Store.Close(); err != nil {
		s.note(fmt.Sprintf("embedding cache: %v", err))
	}
}
