package e2efixtures

import (
	"path/filepath"
	"testing"
)

// FindOne returns the only file of dir matching pattern, failing t
// otherwise: a fixture set names its checkpoints by its generator's
// settings (e.g. sop_model_epoch4.pth.tar), so tests find them by pattern.
func FindOne(t testing.TB, dir, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(m) != 1 {
		t.Fatalf("want exactly one %s in %s, found %v (%v)", pattern, dir, m, err)
	}
	return m[0]
}

// FindDirWith returns the only sub-folder of dir holding file.
func FindDirWith(t testing.TB, dir, file string) string {
	t.Helper()
	return filepath.Dir(FindOne(t, dir, filepath.Join("*", file)))
}
