package embcache

import (
	"errors"
	"os"
	"path/filepath"
	"time"
)

// Defaults of [Options].
const (
	// DefaultMaxBytes caps a store at 4 GiB of keys and values: about
	// 1.3 million 768-dim vectors.
	DefaultMaxBytes = 4 << 30
	// DefaultLockTimeout is how long Open waits for another process to
	// close the store.
	DefaultLockTimeout = 30 * time.Second
)

// FileName is the store's file name inside a cache directory.
const FileName = "embeddings.bolt"

// EnvDir names the environment variable that, when set, overrides the
// default cache directory (see [DefaultDir]); tests point it at a
// temporary directory so they never write into the user's cache.
const EnvDir = "STORYEVAL_CACHE_DIR"

// ErrLocked is wrapped by the error Open returns when another process
// holds the store past Options.LockTimeout.
var ErrLocked = errors.New("store locked by another process")

// Options configure [Open]. The zero value is the default.
type Options struct {
	// MaxBytes caps the bytes of keys and values; writes past it evict
	// the least recently used entries. 0 means DefaultMaxBytes; a
	// negative value means no cap.
	MaxBytes int64
	// LockTimeout is how long Open waits for another process that holds
	// the store. 0 means DefaultLockTimeout; a negative value waits
	// forever.
	LockTimeout time.Duration
	// Verify makes Open check every page (bbolt's Tx.Check), every
	// value's checksum, the use index and the counts: a read of the whole
	// file, seconds near the size cap (storyeval cache stats -verify).
	// Without it Open checks what a few pages tell — bbolt's checksummed
	// meta pages, the file's size against them (a truncated file), the
	// format tag, the buckets and the counts — and the rest is checked as
	// it is read: a value that fails its checksum is a miss, never
	// numbers, and that or a page bbolt cannot make sense of runs this
	// full check, which replaces a damaged file by an empty one.
	Verify bool
}

func (o Options) maxBytes() int64 {
	switch {
	case o.MaxBytes == 0:
		return DefaultMaxBytes
	case o.MaxBytes < 0:
		return -1
	}
	return o.MaxBytes
}

func (o Options) lockTimeout() time.Duration {
	if o.LockTimeout == 0 {
		return DefaultLockTimeout
	}
	return o.LockTimeout
}

// DefaultDir returns the directory the commands keep their store in:
// $STORYEVAL_CACHE_DIR when set, else the "storyeval" folder of the
// user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows).
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "storyeval"), nil
}
