package imageproc

import "io"

// readAllLimited reads a small test file (at most 1 MiB).
func readAllLimited(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, 1<<20))
}
