//go:build unix

package checkpoint

import (
	"os"
	"syscall"
)

// mapFile maps f read-only. The returned release unmaps it. A file that is
// truncated while mapped makes reads fault (SIGBUS), as with any mapping;
// checkpoints are not expected to change while in use.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, syscall.EFBIG
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
