package embcache

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Store is an open embedding store. It is safe for concurrent use; see
// the package documentation for the file and for other processes.
type Store struct {
	path    string
	opts    Options
	lock    *os.File
	db      *bolt.DB
	rebuilt string
	n       counters

	mu      sync.Mutex
	touched map[Key]struct{} // read since the last write; their use is recorded at the next write

	racyWindow *time.Duration // tests: replaces racyWindow
}

// touchFlushAt is how many reads a Store remembers before it records
// their use (for eviction) in a write of its own.
const touchFlushAt = 1024

// Path returns the store's file.
func (s *Store) Path() string { return s.path }

// Rebuilt returns why Open replaced a damaged store by an empty one, or ""
// when it did not.
func (s *Store) Rebuilt() string { return s.rebuilt }

// Get returns the vector stored under k and true, or nil and false when
// there is none. A value that fails its checksum is deleted and counts as
// a miss (Stats.Corrupt); err reports I/O failures only.
func (s *Store) Get(k Key) ([]float32, bool, error) {
	var v []float32
	var bad error
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketEmb).Get(k[:])
		if b == nil {
			return nil
		}
		v, bad = decodeValue(k, b)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("embcache: get %s: %w", k, err)
	}
	if bad != nil {
		s.n.corrupt.Add(1)
		s.n.misses.Add(1)
		err := s.db.Update(func(tx *bolt.Tx) error { return deleteEntry(tx, k[:]) })
		if err != nil {
			return nil, false, fmt.Errorf("embcache: drop corrupt entry %s: %w", k, err)
		}
		return nil, false, nil
	}
	if v == nil {
		s.n.misses.Add(1)
		return nil, false, nil
	}
	s.n.hits.Add(1)
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
	err := s.db.Update(func(tx *bolt.Tx) error {
		w := writer{tx: tx, meta: tx.Bucket(bucketMeta), emb: tx.Bucket(bucketEmb)}
		w.clock = getUint(w.meta, metaClock)
		w.bytes = getUint(w.meta, metaBytes)
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
		n, err := w.evict(s.opts.maxBytes())
		if err != nil {
			return err
		}
		evicted = n
		if err := putUint(w.meta, metaClock, w.clock); err != nil {
			return err
		}
		return putUint(w.meta, metaBytes, w.bytes)
	})
	if err != nil {
		return fmt.Errorf("embcache: write %s: %w", s.path, err)
	}
	s.n.puts.Add(int64(len(ks)))
	s.n.evicted.Add(evicted)
	return nil
}

// writer holds one write transaction's running clock and byte count.
type writer struct {
	tx        *bolt.Tx
	meta, emb *bolt.Bucket
	clock     uint64
	bytes     uint64
}

// touch makes k the most recently used entry.
func (w *writer) touch(k []byte) error {
	used, lru := w.tx.Bucket(bucketUsed), w.tx.Bucket(bucketLRU)
	if old := used.Get(k); old != nil {
		if err := lru.Delete(old); err != nil {
			return err
		}
	}
	w.clock++
	var tick [8]byte
	binary.BigEndian.PutUint64(tick[:], w.clock)
	if err := used.Put(k, tick[:]); err != nil {
		return err
	}
	return lru.Put(tick[:], k)
}

func (w *writer) put(k Key, v []float32) error {
	if old := w.emb.Get(k[:]); old != nil {
		w.bytes -= uint64(len(k) + len(old))
	}
	val := encodeValue(k, v)
	if err := w.emb.Put(k[:], val); err != nil {
		return err
	}
	w.bytes += uint64(len(k) + len(val))
	return w.touch(k[:])
}

// evict deletes the least recently used entries until the byte count is
// within max (a negative max is no cap), and returns how many it deleted.
func (w *writer) evict(max int64) (int64, error) {
	var n int64
	if max < 0 {
		return 0, nil
	}
	c := w.tx.Bucket(bucketLRU).Cursor()
	for w.bytes > uint64(max) {
		tick, k := c.First()
		if tick == nil {
			break
		}
		k = append([]byte(nil), k...)
		if old := w.emb.Get(k); old != nil {
			w.bytes -= uint64(len(k) + len(old))
		}
		if err := deleteEntry(w.tx, k); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// deleteEntry removes k's value and use record, keeping the byte count.
func deleteEntry(tx *bolt.Tx, k []byte) error {
	meta, emb, used, lru := tx.Bucket(bucketMeta), tx.Bucket(bucketEmb), tx.Bucket(bucketUsed), tx.Bucket(bucketLRU)
	if old := emb.Get(k); old != nil {
		if err := putUint(meta, metaBytes, getUint(meta, metaBytes)-uint64(len(k)+len(old))); err != nil {
			return err
		}
	}
	if tick := used.Get(k); tick != nil {
		if err := lru.Delete(tick); err != nil {
			return err
		}
	}
	if err := used.Delete(k); err != nil {
		return err
	}
	return emb.Delete(k)
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
	// cap and values dropped for a failed checksum, since Open.
	Hits, Misses, Puts, Evicted, Corrupt int64
	// FilesRead counts the files DigestFile read (rather than remembered)
	// since Open.
	FilesRead int64
}

// Stats returns the store's statistics.
func (s *Store) Stats() (Stats, error) {
	st := Stats{
		Hits: s.n.hits.Load(), Misses: s.n.misses.Load(), Puts: s.n.puts.Load(),
		Evicted: s.n.evicted.Load(), Corrupt: s.n.corrupt.Load(), FilesRead: s.n.filesRead.Load(),
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		st.Entries = tx.Bucket(bucketEmb).Stats().KeyN
		st.Bytes = int64(getUint(tx.Bucket(bucketMeta), metaBytes))
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("embcache: stats %s: %w", s.path, err)
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
	err := s.db.Update(func(tx *bolt.Tx) error {
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
	if cerr := s.db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("embcache: close %s: %w", s.path, cerr)
	}
	if uerr := unlockFile(s.lock); err == nil && uerr != nil {
		err = fmt.Errorf("embcache: unlock %s: %w", s.path, uerr)
	}
	return err
}
