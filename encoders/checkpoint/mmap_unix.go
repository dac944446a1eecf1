//go:build unix

package checkpoint

import (
	"os"
	"syscall"
	"unsafe"
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
	// No slice into the mapping outlives release: reads copy out of it
	// under the fileSet's read lock, and Close clears the entries' views
	// (fileSet.close).
	return b, func() error { return syscall.Munmap(b) }, nil
}

// releasePages tells the kernel the process no longer needs the whole pages
// inside b, a range of a read-only file mapping: they leave the resident set
// (the page cache keeps them, and a later access faults them back in). After
// a tensor is copied out this keeps a model load's peak RSS at the size of
// the copies instead of twice that.
func releasePages(b []byte) {
	if len(b) == 0 {
		return
	}
	// Sound: the address is only used for arithmetic, the range advised is
	// a reslice of b (never a pointer made from an integer), and b is
	// always inside a read-only MAP_SHARED file mapping (entry.mapped is
	// set only where within(data, mapping) holds): MADV_DONTNEED on
	// file-backed pages drops them from the resident set and a later read
	// faults the same bytes back in, whereas on Go heap memory it would
	// zero live objects. Callers hold the read lock, so Close cannot unmap
	// b meanwhile.
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	syscall.Madvise(b[lo-start:hi-start], syscall.MADV_DONTNEED) // advice only: an error changes nothing
}
