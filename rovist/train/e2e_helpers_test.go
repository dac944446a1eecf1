package train

import (
	"path/filepath"
	"testing"
)

// findOne returns the only file of dir matching pattern.
func findOne(t *testing.T, dir, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(m) != 1 {
		t.Fatalf("want exactly one %s in %s, found %v (%v)", pattern, dir, m, err)
	}
	return m[0]
}

// findDirWith returns the only sub-folder of dir holding file.
func findDirWith(t *testing.T, dir, file string) string {
	t.Helper()
	return filepath.Dir(findOne(t, dir, filepath.Join("*", file)))
}
