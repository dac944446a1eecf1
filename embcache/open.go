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
	metaTally   = []byte("tally") // entries and bytes by kind (tally)
)

// formatTag is written into the meta bucket; a store with another tag is
// another version's and is rebuilt.
var formatTag = []byte("storyeval-embcache " + strconv.Itoa(FormatVersion))

// Open opens the store at path, creating it (and its directory) when
// missing. A store that fails its checks is moved aside to
// path+".corrupt-TIME" and replaced by an empty one; [Store.Rebuilt] then
// says why. Open checks what costs no more than a few pages (see
// Options.Verify); damage elsewhere is found as it is read. Open waits up
// to Options.LockTimeout for another process that holds the store, then
// returns an error wrapping [ErrLocked]; other I/O errors (permissions, a
// full disk) are returned as they are, without touching the file.
func Open(path string, opts Options) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("embcache: %w", err)
	}
	lock, err := lockFile(path+".lock", opts.lockTimeout())
	if err != nil {
		return nil, err
	}
	db, damage, err := openChecked(path, opts.Verify)
	var why string
	if err == nil && damage != nil {
		db, why, err = rebuild(path, damage)
	}
	if err != nil {
		unlockFile(lock)
		return nil, err
	}
	return &Store{path: path, opts: opts, lock: lock, db: db, rebuilt: why, touched: map[Key]struct{}{}}, nil
}

// rebuild moves the damaged store at path aside and creates an empty one;
// why says what was wrong and where the old file went.
func rebuild(path string, damage error) (db *bolt.DB, why string, err error) {
	aside := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405.000000000")
	if err := os.Rename(path, aside); err != nil {
		return nil, "", fmt.Errorf("embcache: move damaged store aside: %w", err)
	}
	db, damage2, err := openChecked(path, false)
	if err == nil && damage2 != nil {
		err = fmt.Errorf("embcache: new store %s: %w", path, damage2)
	}
	return db, fmt.Sprintf("%v; moved aside to %s", damage, aside), err
}

// openChecked opens path with bbolt and checks it, every page and value
// when full. It returns a non-nil damage (and a nil db) when the file is
// not a sound store of this version, and err for failures that say
// nothing about the file's content.
func openChecked(path string, full bool) (db *bolt.DB, damage, err error) {
	defer func() {
		if (damage != nil || err != nil) && db != nil {
			db.Close()
			db = nil
		}
	}()
	err = guard(func() error {
		// bbolt's own flock is uncontended behind lockFile, hence the
		// short timeout.
		var err error
		db, err = bolt.Open(path, 0o644, &bolt.Options{Timeout: time.Second})
		if err != nil {
			if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrVersionMismatch) ||
				errors.Is(err, berrors.ErrChecksum) || isBoltFormatError(err) {
				return &damageError{fmt.Errorf("embcache: store %s: %w", path, err)}
			}
			return fmt.Errorf("embcache: open %s: %w", path, err)
		}
		return checkStore(db, path, full)
	})
	var d *damageError
	if errors.As(err, &d) {
		return db, d.err, nil
	}
	return db, nil, err
}

// damageError marks an error that says the file is damaged.
type damageError struct{ err error }

func (d *damageError) Error() string { return d.err.Error() }
func (d *damageError) Unwrap() error { return d.err }

// guard runs f, turning a panic into a damageError. bbolt panics on a
// page that does not identify itself as the page its parent points to
// (Page.FastCheck) and on other impossible structure; with panic-on-fault,
// a read of a mapped page past the end of a truncated file is such a panic
// too rather than a crash. Page reads in bbolt's own goroutines (Tx.Check)
// happen only after checkStore has checked the file's size.
func guard(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &damageError{fmt.Errorf("embcache: store unreadable: %v", r)}
		}
	}()
	return f()
}

// isBoltFormatError reports bbolt's unexported errors about a file that
// is too small to be a store.
func isBoltFormatError(err error) bool {
	return bytes.Contains([]byte(err.Error()), []byte("file size too small"))
}

// checkStore initializes an empty store or checks an existing one: its
// size against the file's (a truncated file), its format tag, buckets and
// counts; with full, every page (bbolt's Tx.Check), every value's
// checksum, the use index and the counts against the values. Damage is
// returned as a *damageError.
func checkStore(db *bolt.DB, path string, full bool) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("embcache: %w", err)
	}
	empty := false
	err = db.View(func(tx *bolt.Tx) error {
		if tx.Size() > fi.Size() {
			return fmt.Errorf("embcache: store %s truncated: %d bytes, its pages need %d", path, fi.Size(), tx.Size())
		}
		if tx.Bucket(bucketMeta) == nil {
			if tx.Bucket(bucketEmb) != nil || tx.Bucket(bucketUsed) != nil || tx.Bucket(bucketLRU) != nil {
				return fmt.Errorf("embcache: store %s has no format tag", path)
			}
			empty = true
			return nil
		}
		return checkContent(tx, path, full)
	})
	if err != nil {
		return &damageError{err}
	}
	if empty {
		return db.Update(createBuckets)
	}
	return nil
}

// checkContent checks a store's format tag, buckets and counts, and with
// full its pages, values and use records.
func checkContent(tx *bolt.Tx, path string, full bool) error {
	meta := tx.Bucket(bucketMeta)
	if tag := meta.Get(metaFormat); !bytes.Equal(tag, formatTag) {
		return fmt.Errorf("embcache: store %s is format %q, want %q", path, tag, formatTag)
	}
	emb, used, lru := tx.Bucket(bucketEmb), tx.Bucket(bucketUsed), tx.Bucket(bucketLRU)
	if emb == nil || used == nil || lru == nil {
		return fmt.Errorf("embcache: store %s lacks a bucket", path)
	}
	counted, err := decodeTally(meta.Get(metaTally))
	if err != nil {
		return fmt.Errorf("embcache: store %s: %w", path, err)
	}
	if !full {
		return nil
	}
	// bbolt's Tx.Check reads pages in a goroutine of its own, where a
	// damaged page's panic (Page.FastCheck) or fault cannot be recovered;
	// reading every page here first, under guard, makes those panics this
	// goroutine's.
	if err := touchPages(tx); err != nil {
		return fmt.Errorf("embcache: store %s damaged: %w", path, err)
	}
	// Check's goroutine reads the mapped file until it closes the
	// channel: it is drained, so that the file is not unmapped (a rebuild
	// closes it) under that goroutine.
	var damage error
	for err := range tx.Check() {
		if damage == nil {
			damage = fmt.Errorf("embcache: store %s damaged: %w", path, err)
		}
	}
	if damage != nil {
		return damage
	}
	var held tally
	err = emb.ForEach(func(k, v []byte) error {
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
		held.add(key, len(v), +1)
		return nil
	})
	if err != nil {
		return err
	}
	n, _ := held.total()
	if uint64(used.Stats().KeyN) != n || uint64(lru.Stats().KeyN) != n {
		return fmt.Errorf("embcache: store %s has %d entries but %d/%d use records", path, n, used.Stats().KeyN, lru.Stats().KeyN)
	}
	if held != counted {
		return fmt.Errorf("embcache: store %s counts %v (entries, bytes by kind), its entries hold %v", path, counted, held)
	}
	return nil
}

// touchPages walks every key and value of every bucket, which reads each
// branch, leaf and overflow page of the file's trees, and the freelist
// and meta pages (bbolt's Tx.Page), so that a page that does not hold what
// its parent says panics here.
func touchPages(tx *bolt.Tx) error {
	var sum byte
	var walk func(b *bolt.Bucket) error
	walk = func(b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if child := b.Bucket(k); child != nil {
					return walk(child)
				}
				return nil
			}
			if len(v) > 0 {
				sum ^= v[0] ^ v[len(v)-1]
			}
			return nil
		})
	}
	err := tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(b) })
	if err != nil {
		return err
	}
	_ = sum
	if err := checkFreelistPage(tx); err != nil {
		return err
	}
	// Tx.Check marks every page of a run as reachable, one by one: a
	// page header whose run of overflow pages passes the end (a flipped
	// high bit) would keep it at that for hours. Runs are checked here.
	// Pages follow one another: a page in use, then its overflow pages,
	// or a free page (the freelist names each page of a freed run).
	hwm := tx.Size() / int64(tx.DB().Info().PageSize)
	for id := int64(0); id < hwm; id++ {
		info, err := tx.Page(int(id))
		if err != nil {
			return err
		}
		if info == nil || info.Type == "free" {
			continue
		}
		if id+int64(info.OverflowCount) >= hwm {
			return fmt.Errorf("page %d (%s) has %d overflow pages, past the last page %d", id, info.Type, info.OverflowCount, hwm-1)
		}
		id += int64(info.OverflowCount)
	}
	return nil
}

// checkFreelistPage checks that the freelist page of tx's meta page says
// it is that page, as Tx.Check asserts in its goroutine. bbolt keeps the
// meta page to itself, so it is read from the file: bbolt's page header
// (id, flags, count, overflow) and, after it, its meta (magic, version,
// page size, flags, root bucket, freelist page, high-water mark, txid,
// checksum).
func checkFreelistPage(tx *bolt.Tx) error {
	f, err := os.Open(tx.DB().Path())
	if err != nil {
		return err
	}
	defer f.Close()
	size := int64(tx.DB().Info().PageSize)
	const noFreelist = ^uint64(0)
	for m := int64(0); m < 2; m++ {
		var meta [80]byte
		if _, err := f.ReadAt(meta[:], m*size); err != nil {
			return err
		}
		if binary.LittleEndian.Uint64(meta[64:]) != uint64(tx.ID()) {
			continue
		}
		fl := binary.LittleEndian.Uint64(meta[48:])
		if fl == noFreelist {
			return nil
		}
		var hdr [10]byte
		if fl < 2 || fl >= uint64(tx.Size()/size) {
			return fmt.Errorf("freelist page %d out of range", fl)
		}
		if _, err := f.ReadAt(hdr[:], int64(fl)*size); err != nil {
			return err
		}
		const freelistFlag = 0x10
		if id, flags := binary.LittleEndian.Uint64(hdr[:8]), binary.LittleEndian.Uint16(hdr[8:]); id != fl || flags != freelistFlag {
			return fmt.Errorf("freelist page %d says it is page %d with flags %#x", fl, id, flags)
		}
		return nil
	}
	return fmt.Errorf("no meta page of transaction %d", tx.ID())
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
	return meta.Put(metaTally, (&tally{}).encode())
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

// counters are a Store's per-session statistics; hits, misses and puts
// by kind slot.
type counters struct {
	hits, misses, puts  [numSlots]atomic.Int64
	evicted, corrupt    atomic.Int64
	filesRead, verified atomic.Int64
}
