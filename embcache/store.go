package embcache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Store is an open embedding store. It is safe for concurrent use; see
// the package documentation for the file and for other processes.
type Store struct {
	path string
	opts Options
	lock *os.File
	n    counters

	// dbMu is read-locked by every transaction and write-locked to
	// replace a damaged file; it guards db, gen, rebuilt and broken.
	dbMu    sync.RWMutex
	db      *bolt.DB
	gen     int    // replacements of db so far
	rebuilt string // why the last replacement happened
	broken  error  // a replacement failed: every call returns it

	mu      sync.Mutex
	touched map[Key]struct{} // read since the last write; their use is recorded at the next write

	racyWindow *time.Duration // tests: replaces racyWindow
}

// touchFlushAt is how many reads a Store remembers before it records
// their use (for eviction) in a write of its own.
const touchFlushAt = 1024

// Path returns the store's file.
func (s *Store) Path() string { return s.path }

// Rebuilt returns why the store replaced a damaged file by an empty one
// (at Open, or when a read found damage later), or "" when it did not.
func (s *Store) Rebuilt() string {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	return s.rebuilt
}

// run runs f in a transaction, a writable one when write is set. When f
// meets damage (a value that fails its checksum, a page bbolt cannot make
// sense of), the store runs the full check of Options.Verify; a file that
// fails it is moved aside and replaced by an empty one, and f runs again
// on that.
func (s *Store) run(write bool, f func(*bolt.Tx) error) error {
	for attempt := 0; ; attempt++ {
		s.dbMu.RLock()
		db, gen, err := s.db, s.gen, s.broken
		if err == nil {
			err = guard(func() error {
				if write {
					return db.Update(f)
				}
				return db.View(f)
			})
		}
		s.dbMu.RUnlock()
		var d *damageError
		if attempt > 0 || !errors.As(err, &d) {
			return err
		}
		if err := s.repair(gen, d.err); err != nil {
			return err
		}
	}
}

// repair runs the full check on the file of generation gen, which a
// transaction found damaged (cause), and replaces it by an empty store
// when the check fails. It returns cause when the check finds the file
// sound, and nil when another goroutine replaced the file meanwhile.
func (s *Store) repair(gen int, cause error) error {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	if s.gen != gen || s.broken != nil {
		return s.broken
	}
	s.n.verified.Add(1)
	err := guard(func() error { return checkStore(s.db, s.path, true) })
	var d *damageError
	if err == nil {
		return fmt.Errorf("%w (yet the store passes the full check)", cause)
	}
	if !errors.As(err, &d) {
		return err
	}
	s.db.Close()
	s.gen++
	db, why, err := rebuild(s.path, d.err)
	if err != nil {
		s.db, s.broken = nil, err
		return err
	}
	s.db, s.rebuilt = db, why
	return nil
}

// Get returns the vector stored under k and true, or nil and false when
// there is none. A value that fails its checksum counts as a miss
// (Stats.Corrupt) and makes the store check every page and value,
// replacing a damaged file by an empty one (Rebuilt says why); err reports
// I/O failures only.
func (s *Store) Get(k Key) ([]float32, bool, error) {
	var v []float32
	err := s.run(false, func(tx *bolt.Tx) error {
		v = nil
		b := tx.Bucket(bucketEmb).Get(k[:])
		if b == nil {
			return nil
		}
		var bad error
		if v, bad = decodeValue(k, b); bad != nil {
			s.n.corrupt.Add(1)
			return &damageError{fmt.Errorf("embcache: store %s entry %s: %w", s.path, k, bad)}
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("embcache: get %s: %w", k, err)
	}
	slot := slotOf(k)
	if v == nil {
		s.n.misses[slot].Add(1)
		return nil, false, nil
	}
	s.n.hits[slot].Add(1)
	s.mu.Lock()
	s.touched[k] = struct{}{}
	flush := len(s.touched) >= touchFlushAt
	s.mu.Unlock()
	if flush {
		if err := s.PutMany(nil, nil); err != nil {
			return nil, false, err
		}
	}
	return v, true, nil
}

// Put stores v under k, replacing what was there, and evicts the least
// recently used entries past Options.MaxBytes. The write is committed
// (fsync) before Put returns.
func (s *Store) Put(k Key, v []float32) error {
	return s.PutMany([]Key{k}, [][]float32{v})
}

// PutMany stores vs[i] under ks[i] in one transaction: one fsync for the
// lot. It also records the uses of the entries read since the last write.
func (s *Store) PutMany(ks []Key, vs [][]float32) error {
	if len(ks) != len(vs) {
		return fmt.Errorf("embcache: PutMany: %d keys for %d vectors", len(ks), len(vs))
	}
	s.mu.Lock()
	touched := s.touched
	s.touched = map[Key]struct{}{}
	s.mu.Unlock()
	var evicted int64
	err := s.run(true, func(tx *bolt.Tx) error {
		w, err := newWriter(tx, s.path)
		if err != nil {
			return err
		}
		for k := range touched {
			if w.emb.Get(k[:]) != nil {
				if err := w.touch(k[:]); err != nil {
					return err
				}
			}
		}
		for i, k := range ks {
			if err := w.put(k, vs[i]); err != nil {
				return err
			}
		}
		if evicted, err = w.evict(s.opts.maxBytes()); err != nil {
			return err
		}
		return w.finish()
	})
	if err != nil {
		return fmt.Errorf("embcache: write %s: %w", s.path, err)
	}
	for _, k := range ks {
		s.n.puts[slotOf(k)].Add(1)
	}
	s.n.evicted.Add(evicted)
	return nil
}

// writer holds one write transaction's running clock and counts.
type writer struct {
	tx                   *bolt.Tx
	meta, emb, used, lru *bolt.Bucket
	clock                uint64
	tally                tally
}

func newWriter(tx *bolt.Tx, path string) (*writer, error) {
	w := &writer{tx: tx, meta: tx.Bucket(bucketMeta), emb: tx.Bucket(bucketEmb), used: tx.Bucket(bucketUsed), lru: tx.Bucket(bucketLRU)}
	w.clock = getUint(w.meta, metaClock)
	t, err := decodeTally(w.meta.Get(metaTally))
	if err != nil {
		return nil, &damageError{fmt.Errorf("embcache: store %s: %w", path, err)}
	}
	w.tally = t
	return w, nil
}

// finish writes the clock and the counts back.
func (w *writer) finish() error {
	if err := putUint(w.meta, metaClock, w.clock); err != nil {
		return err
	}
	return w.meta.Put(metaTally, w.tally.encode())
}

// touch makes k the most recently used entry.
func (w *writer) touch(k []byte) error {
	if old := w.used.Get(k); old != nil {
		if err := w.lru.Delete(old); err != nil {
			return err
		}
	}
	w.clock++
	var tick [8]byte
	binary.BigEndian.PutUint64(tick[:], w.clock)
	if err := w.used.Put(k, tick[:]); err != nil {
		return err
	}
	return w.lru.Put(tick[:], k)
}

func (w *writer) put(k Key, v []float32) error {
	if old := w.emb.Get(k[:]); old != nil {
		w.tally.add(k, len(old), -1)
	}
	val := encodeValue(k, v)
	if err := w.emb.Put(k[:], val); err != nil {
		return err
	}
	w.tally.add(k, len(val), +1)
	return w.touch(k[:])
}

// evict deletes the least recently used entries until the bytes of keys
// and values are within max (a negative max is no cap), and returns how
// many it deleted.
func (w *writer) evict(max int64) (int64, error) {
	var n int64
	if max < 0 {
		return 0, nil
	}
	c := w.lru.Cursor()
	for {
		if _, bytes := w.tally.total(); bytes <= uint64(max) {
			return n, nil
		}
		tick, k := c.First()
		if tick == nil {
			return n, nil
		}
		if err := w.delete(append([]byte(nil), k...)); err != nil {
			return n, err
		}
		n++
	}
}

// delete removes k's value and use record.
func (w *writer) delete(k []byte) error {
	if old := w.emb.Get(k); old != nil && len(k) == len(Key{}) {
		w.tally.add(Key(k), len(old), -1)
	}
	if tick := w.used.Get(k); tick != nil {
		if err := w.lru.Delete(tick); err != nil {
			return err
		}
	}
	if err := w.used.Delete(k); err != nil {
		return err
	}
	return w.emb.Delete(k)
}

// Stats describe a store and what a Store did since Open.
type Stats struct {
	// Entries and Bytes count the stored vectors and the bytes of their
	// keys and values; FileBytes is the file's size on disk (bbolt pages,
	// free pages included).
	Entries   int
	Bytes     int64
	FileBytes int64
	// Hits, Misses, Puts, Evicted and Corrupt count Get calls that found
	// a vector, that did not, stored vectors, entries evicted for the size
	// cap and values that failed their checksum, since Open.
	Hits, Misses, Puts, Evicted, Corrupt int64
	// FilesRead counts the files DigestFile read (rather than remembered)
	// since Open.
	FilesRead int64
	// Verified counts the full checks that damage found by a read ran
	// since Open (Rebuilt says whether one replaced the file).
	Verified int64
	// Image and Text break Entries, Bytes, Hits, Misses and Puts down by
	// the Kind of the keys (ImageKey, TextKey); keys of another kind are
	// in the totals only.
	Image, Text KindStats
}

// KindStats are the Stats of the entries of one Kind.
type KindStats struct {
	Entries            int
	Bytes              int64
	Hits, Misses, Puts int64
}

// Stats returns the store's statistics. It reads the counts the file
// keeps, not every entry.
func (s *Store) Stats() (Stats, error) {
	var t tally
	err := s.run(false, func(tx *bolt.Tx) error {
		var err error
		if t, err = decodeTally(tx.Bucket(bucketMeta).Get(metaTally)); err != nil {
			return &damageError{fmt.Errorf("embcache: store %s: %w", s.path, err)}
		}
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("embcache: stats %s: %w", s.path, err)
	}
	kind := func(slot int) KindStats {
		return KindStats{Entries: int(t[slot].entries), Bytes: int64(t[slot].bytes),
			Hits: s.n.hits[slot].Load(), Misses: s.n.misses[slot].Load(), Puts: s.n.puts[slot].Load()}
	}
	st := Stats{Evicted: s.n.evicted.Load(), Corrupt: s.n.corrupt.Load(), FilesRead: s.n.filesRead.Load(),
		Verified: s.n.verified.Load(), Image: kind(slotImage), Text: kind(slotText)}
	for slot := range numSlots {
		k := kind(slot)
		st.Entries += k.Entries
		st.Bytes += k.Bytes
		st.Hits += k.Hits
		st.Misses += k.Misses
		st.Puts += k.Puts
	}
	fi, err := os.Stat(s.path)
	if err != nil {
		return st, fmt.Errorf("embcache: stats: %w", err)
	}
	st.FileBytes = fi.Size()
	return st, nil
}

// Clear deletes every embedding (the remembered file digests of
// DigestFile stay). The file keeps its size; later writes reuse its
// pages.
func (s *Store) Clear() error {
	s.mu.Lock()
	s.touched = map[Key]struct{}{}
	s.mu.Unlock()
	err := s.run(true, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketEmb, bucketUsed, bucketLRU} {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return createBuckets(tx)
	})
	if err != nil {
		return fmt.Errorf("embcache: clear %s: %w", s.path, err)
	}
	return nil
}

// Close records the uses of the entries read since the last write,
// closes the file and releases it to other processes.
func (s *Store) Close() error {
	err := s.PutMany(nil, nil)
	s.dbMu.Lock()
	if s.db != nil {
		if cerr := s.db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("embcache: close %s: %w", s.path, cerr)
		}
		s.db = nil
	}
	if s.broken == nil {
		s.broken = fmt.Errorf("embcache: store %s is closed", s.path)
	}
	s.dbMu.Unlock()
	if uerr := unlockFile(s.lock); err == nil && uerr != nil {
		err = fmt.Errorf("embcache: unlock %s: %w", s.path, uerr)
	}
	return err
}
