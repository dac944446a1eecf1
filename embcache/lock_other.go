//go:build !unix

package embcache

import (
	"os"
	"time"
)

// lockFile is a no-op where flock is missing: bbolt's own file lock (taken
// by bolt.Open with Options.LockTimeout) still keeps a second process out.
func lockFile(string, time.Duration) (*os.File, error) { return nil, nil }

func unlockFile(*os.File) error { return nil }
