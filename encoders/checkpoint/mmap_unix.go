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
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	syscall.Madvise(b[lo-start:hi-start], syscall.MADV_DONTNEED) // advice only: an error changes nothing
}
