// Package atomicfile writes output files so that a reader never sees a
// half-written one: the bytes go to a temporary file in the target's folder
// (the same file system, so the final rename is atomic), which is synced and
// renamed over the target only once it is complete. A failed write, a
// cancelled one or a process killed mid-write leaves the previous file as it
// was (a killed process may leave its ".NAME.tmp*" temporary file behind,
// never a truncated NAME).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// DefaultPerm is the mode of a new file (one that replaces no existing
// file), the mode os.Create gives under the usual 022 umask. A file that
// replaces another keeps the other's mode.
const DefaultPerm os.FileMode = 0o644

// File is an output file being written. Write to it, then Commit to put it
// in place, or Abort to drop it; Abort after Commit does nothing, so
// `defer f.Abort()` is the usual pattern. A File must not be used by two
// goroutines at once.
type File struct {
	path string
	tmp  *os.File
	done bool
}

// Create starts writing path: it opens a temporary file beside path that
// Commit renames to path.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no output path given")
	}
	perm := DefaultPerm
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: exists and is not a regular file", path)
		}
		perm = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	// CreateTemp makes the file private (0600); an output file is not.
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &File{path: path, tmp: tmp}, nil
}

// Name returns the path the file is committed to.
func (f *File) Name() string { return f.path }

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("%s: write after Commit or Abort", f.path)
	}
	return f.tmp.Write(p)
}

// Sync flushes the temporary file to stable storage without committing
// it. A caller committing several files as a group syncs them all first,
// so that the renames of Commit follow one another with no disk wait in
// between.
func (f *File) Sync() error {
	if f.done {
		return fmt.Errorf("%s: Sync after Commit or Abort", f.path)
	}
	if err := f.tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	return nil
}

// Commit syncs the temporary file, closes it and renames it to the path
// given to Create. On error the temporary file is removed and the path is
// left as it was.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: Commit after Commit or Abort", f.path)
	}
	f.done = true
	err := f.tmp.Sync()
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	return nil
}

// Abort drops the temporary file, leaving the path as it was. It does
// nothing after Commit or a previous Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Write writes path through fill, which gets the temporary file: when fill
// returns nil the file is committed, otherwise dropped and fill's error
// returned, with path left as it was.
func Write(path string, fill func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit()
}
