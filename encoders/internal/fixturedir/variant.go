package fixturedir

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Variant builds a fixture set derived from Dir() for a test that must
// pass on other sets made by the same generator (max-length padding, a
// model or array left out, an image only one processor covers …): the
// tree is mirrored under t.TempDir() with every file a symbolic link to the
// original, edit changes the copy (replace a file with Write or EditJSON,
// drop one with os.Remove or os.RemoveAll), and EnvVar points at the copy
// for the rest of the test. It returns the copy's root.
func Variant(t testing.TB, edit func(root string)) string {
	t.Helper()
	src := Dir()
	dst := filepath.Join(t.TempDir(), "fixtures")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		return os.Symlink(abs, target)
	})
	if err != nil {
		t.Fatalf("mirroring %s: %v", src, err)
	}
	edit(dst)
	t.Setenv(EnvVar, dst)
	return dst
}

// Write replaces the file at path (a link of a Variant) with data.
func Write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// EditJSON decodes the JSON object at path, lets edit change it and writes
// it back (as a file of its own, not a link).
func EditJSON(t testing.TB, path string, edit func(m map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	edit(m)
	out, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	Write(t, path, out)
}
