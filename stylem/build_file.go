package stylem

import (
	"bufio"
	"context"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/atomicfile"
)

// FileError reports that writing the table file failed (creating,
// writing, syncing or renaming it), as opposed to building the table.
type FileError struct {
	Path string // the table file
	Err  error  // the file system's error
}

// Error implements error.
func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the file system's error.
func (e *FileError) Unwrap() error { return e.Err }

// BuildFile builds the table of records (WriteBuild) into the file at
// path without ever leaving a partial table there: the table goes to a
// temporary file beside path, renamed over it once complete and synced,
// so an interrupted or failed build leaves the previous file. so.Dir
// defaults to path's folder (the table's disk) instead of os.TempDir().
// A failure of the file itself is a *FileError; a cancelled ctx returns
// ctx.Err() even when the build had finished.
func BuildFile(ctx context.Context, path string, records []Record, o BuildOptions, so SpillOptions) (BuildStats, error) {
	if so.Dir == "" {
		so.Dir = filepath.Dir(path)
	}
	var st BuildStats
	var buildErr error
	err := atomicfile.Write(path, func(w io.Writer) error {
		ow := &firstErrWriter{w: w}
		bw := bufio.NewWriterSize(ow, 1<<20)
		st, buildErr = WriteBuild(ctx, bw, records, o, so)
		if buildErr == nil {
			buildErr = bw.Flush()
		}
		switch {
		case ow.err != nil: // the table's file, not the build, failed
			buildErr = nil
			return ow.err
		case ctx.Err() != nil:
			buildErr = ctx.Err()
		}
		return buildErr
	})
	if buildErr != nil {
		return st, buildErr
	}
	if err != nil {
		return st, &FileError{Path: path, Err: err}
	}
	return st, nil
}

// firstErrWriter remembers the first error of w, so that a failed write
// of the table is told apart from a failed build.
type firstErrWriter struct {
	w   io.Writer
	err error
}

func (f *firstErrWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}
