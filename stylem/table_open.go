package stylem

import (
	"bufio"
	"fmt"
	"os"
)

// OpenTable reads the table file at path with ReadTable. An error opening
// the file is os.Open's (a *fs.PathError with Op "open"), so that a caller
// can tell a wrong path from a bad file; an error reading it names path.
func OpenTable(path string, opts ReadOptions) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// ReadTable reads the header and the gzip stream in small pieces; the
	// buffer saves a system call for each.
	t, err := ReadTable(bufio.NewReaderSize(f, 1<<20), opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
