package groovist

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/limits"
)

// TestLoadCaptionsDir reads the fixture's captions over its images folder
// (10 images, each with a candidate) and checks the two folder errors.
func TestLoadCaptionsDir(t *testing.T) {
	dir := e2efixtures.Metric("clipscore")
	t.Logf("fixtures: %s", dir)
	items, err := LoadCaptionsDir(filepath.Join(dir, "candidates.json"), filepath.Join(dir, "refs.json"), filepath.Join(dir, "images"), limits.Limits{})
	ids, _, err2 := ImageFiles(filepath.Join(dir, "images"))
	if err != nil || err2 != nil || len(items) != len(ids) || len(ids) == 0 || items[0].ID != ids[0] || len(items[0].References) == 0 {
		t.Fatalf("LoadCaptionsDir: %d items, %v; want one per image of %v, with references", len(items), err, ids)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		dir      string
		notExist bool
	}{{empty, false}, {filepath.Join(empty, "none"), true}} {
		_, err := LoadCaptionsDir(filepath.Join(dir, "candidates.json"), "", tc.dir, limits.Limits{})
		var ie *InputError
		if !errors.As(err, &ie) || ie.Input != "images" || errors.Is(err, fs.ErrNotExist) != tc.notExist {
			t.Errorf("images folder %s: %v, want an *InputError for images", tc.dir, err)
		}
	}
}
