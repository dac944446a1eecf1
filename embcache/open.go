package embcache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Bucket and meta-key names in the bbolt file.
var (
	bucketMeta  = []byte("meta")
	bucketEmb   = []byte("emb")   // key -> encoded value
	bucketUsed  = []byte("used")  // key -> last-use tick, 8 bytes big-endian
	bucketLRU   = []byte("lru")   // last-use tick -> key, oldest first
	bucketFiles = []byte("files") // absolute path -> stamp, digest, checksum (Store.DigestFile)
	metaFormat  = []byte("format")
	metaClock   = []byte("clock")
	metaBytes   = []byte("bytes")
)

// formatTag is written into the meta bucket; a store with another tag is
// another version's and is rebuilt.
var formatTag = []byte("storyeval-embcache " + strconv.Itoa(FormatVersion))

// Open opens the store at path, creating it (and its directory) when
// missing. A store that fails its checks is moved aside to
// path+".corrupt-TIME" and replaced by an empty one; [Store.Rebuilt] then
// says why. Open waits up to Options.LockTimeout for another process that
// holds the store, then returns an error wrapping [ErrLocked]; other I/O
// errors (permissions, a full disk) are returned as they are, without
// touching the file.
func Open(path string, opts Options) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("embcache: %w", err)
	}
	lock, err := lockFile(path+".lock", opts.lockTimeout())
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, opts: opts, lock: lock, touched: map[Key]struct{}{}}
	db, damage, err := openChecked(path, opts)
	if err == nil && damage != nil {
		aside := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405.000000000")
		if err = os.Rename(path, aside); err == nil {
			s.rebuilt = fmt.Sprintf("%v; moved aside to %s", damage, aside)
			db, damage, err = openChecked(path, opts)
			if err == nil && damage != nil {
				err = fmt.Errorf("embcache: new store %s: %w", path, damage)
			}
		}
	}
	if err != nil {
		unlockFile(lock)
		return nil, err
	}
	s.db = db
	return s, nil
}

// openChecked opens path with bbolt and checks it. It returns a non-nil
// damage (and a nil db) when the file is not a sound store of this
// version, and err for failures that say nothing about the file's content.
func openChecked(path string, opts Options) (db *bolt.DB, damage, err error) {
	// A truncated file can make bbolt touch mapped pages past the end of
	// the file; with panic-on-fault that is a recoverable panic here
	// rather than a crash. Page reads outside this goroutine happen only
	// after the size check below.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if db != nil {
				db.Close()
			}
			db, damage, err = nil, fmt.Errorf("embcache: store %s unreadable: %v", path, r), nil
		}
	}()
	// bbolt's own flock is uncontended behind lockFile, hence the short
	// timeout.
	db, err = bolt.Open(path, 0o644, &bolt.Options{Timeout: time.Second})
	if err != nil {
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrVersionMismatch) ||
			errors.Is(err, berrors.ErrChecksum) || isBoltFormatError(err) {
			return nil, fmt.Errorf("embcache: store %s: %w", path, err), nil
		}
		return nil, nil, fmt.Errorf("embcache: open %s: %w", path, err)
	}
	if damage = checkStore(db, path, opts); damage != nil {
		db.Close()
		return nil, damage, nil
	}
	return db, nil, nil
}

// isBoltFormatError reports bbolt's unexported errors about a file that
// is too small to be a store.
func isBoltFormatError(err error) bool {
	return bytes.Contains([]byte(err.Error()), []byte("file size too small"))
}

// checkStore initializes an empty store or checks an existing one: its
// format tag, its size against the file's, every page (bbolt's Tx.Check),
// every value's checksum, and the byte count and use index against the
// values.
func checkStore(db *bolt.DB, path string, opts Options) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("embcache: %w", err)
	}
	return db.Update(func(tx *bolt.Tx) error {
		if tx.Size() > fi.Size() {
			return fmt.Errorf("embcache: store %s truncated: %d bytes, its pages need %d", path, fi.Size(), tx.Size())
		}
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			if tx.Bucket(bucketEmb) != nil || tx.Bucket(bucketUsed) != nil || tx.Bucket(bucketLRU) != nil {
				return fmt.Errorf("embcache: store %s has no format tag", path)
			}
			return createBuckets(tx)
		}
		if tag := meta.Get(metaFormat); !bytes.Equal(tag, formatTag) {
			return fmt.Errorf("embcache: store %s is format %q, want %q", path, tag, formatTag)
		}
		emb, used, lru := tx.Bucket(bucketEmb), tx.Bucket(bucketUsed), tx.Bucket(bucketLRU)
		if emb == nil || used == nil || lru == nil {
			return fmt.Errorf("embcache: store %s lacks a bucket", path)
		}
		if opts.SkipVerify {
			return nil
		}
		for err := range tx.Check() {
			return fmt.Errorf("embcache: store %s damaged: %w", path, err)
		}
		var n, total int
		err := emb.ForEach(func(k, v []byte) error {
			var key Key
			if len(k) != len(key) {
				return fmt.Errorf("embcache: store %s has a %d-byte key", path, len(k))
			}
			copy(key[:], k)
			if _, err := decodeValue(key, v); err != nil {
				return fmt.Errorf("embcache: store %s entry %s: %w", path, key, err)
			}
			tick := used.Get(k)
			if len(tick) != 8 || !bytes.Equal(lru.Get(tick), k) {
				return fmt.Errorf("embcache: store %s entry %s has no use record", path, key)
			}
			n++
			total += len(k) + len(v)
			return nil
		})
		if err != nil {
			return err
		}
		if used.Stats().KeyN != n || lru.Stats().KeyN != n {
			return fmt.Errorf("embcache: store %s has %d entries but %d/%d use records", path, n, used.Stats().KeyN, lru.Stats().KeyN)
		}
		if got := getUint(meta, metaBytes); got != uint64(total) {
			return fmt.Errorf("embcache: store %s counts %d bytes, its entries hold %d", path, got, total)
		}
		return nil
	})
}

func createBuckets(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	for _, name := range [][]byte{bucketEmb, bucketUsed, bucketLRU} {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	if err := meta.Put(metaFormat, formatTag); err != nil {
		return err
	}
	return putUint(meta, metaBytes, 0)
}

func getUint(b *bolt.Bucket, k []byte) uint64 {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putUint(b *bolt.Bucket, k []byte, v uint64) error {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], v)
	return b.Put(k, buf[:])
}

// counters are a Store's per-session statistics.
type counters struct {
	hits, misses, puts, evicted, corrupt, filesRead atomic.Int64
}
