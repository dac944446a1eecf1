//go:build !unix

package checkpoint

import (
	"errors"
	"os"
)

// mapFile is unavailable off unix; openBytes falls back to reading the file.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	return nil, nil, errors.New("memory mapping not supported on this platform")
}

// releasePages is a no-op without mappings.
func releasePages(b []byte) {}
