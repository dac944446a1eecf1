//go:build unix

package embcache

import (
	"os"
	"syscall"
)

// fileStamp is what says a file is unchanged since it was digested: its
// device, inode, size and modification and change times, as git's index
// records them. The change time cannot be set back by user tools, so an
// edit that restores the size and modification time still shows.
func fileStamp(fi os.FileInfo) ([]byte, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false
	}
	return stampBytes(uint64(st.Dev), st.Ino, uint64(st.Size), fi.ModTime().UnixNano(),
		st.Ctim.Sec*1e9+st.Ctim.Nsec), true
}
