//go:build unix

package embcache

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive flock on path (created if missing), polling
// until timeout; a negative timeout waits forever. The lock is a separate
// file from the store so that a store can be moved aside and recreated
// while the lock is held, and it goes away with the process that holds
// it, so a crashed run leaves no stale lock.
func lockFile(path string, timeout time.Duration) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("embcache: lock: %w", err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("embcache: lock %s: %w", path, err)
		}
		if timeout >= 0 && time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("embcache: %s held by another process for %v: %w", path, timeout, ErrLocked)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func unlockFile(f *os.File) error {
	if f == nil {
		return nil
	}
	// Closing the descriptor releases the flock.
	return f.Close()
}
