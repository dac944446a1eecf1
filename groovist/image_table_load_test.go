package groovist_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// TestLoadImageTable reads a VWP table and checks the errors: a missing
// file is the *fs.PathError, a wrong shape names the file and the shape.
func TestLoadImageTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vwp.json")
	if err := os.WriteFile(path, []byte(`{"scene1": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []groovist.Input{{Story: story.Story{ID: "scene1;2"}}}
	table, err := groovist.LoadImageTable(path, groovist.VWP, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := groovist.AssignImageIDs(inputs, groovist.VWP, table); err != nil || len(inputs[0].Images) != 3 || inputs[0].Images[2].ID != "scene1_2" {
		t.Errorf("VWP table: %v, images %v; want the scene's 3 images", err, inputs[0].Images)
	}
	if table, err := groovist.LoadImageTable(filepath.Join(dir, "none.json"), groovist.AESOP, limits.Limits{}); table != nil || err != nil {
		t.Errorf("AESOP (no table): %v, %v; want none, without reading the file", table, err)
	}
	if _, err := groovist.LoadImageTable(filepath.Join(dir, "none.json"), groovist.VWP, limits.Limits{}); !errors.As(err, new(*fs.PathError)) {
		t.Errorf("missing file: %v, want an *fs.PathError", err)
	}
	if _, err := groovist.LoadImageTable(path, groovist.VIST, limits.Limits{}); err == nil || !strings.HasPrefix(err.Error(), path+": want {story id: [image ids]}") {
		t.Errorf("VIST table of a VWP file: %v, want an error naming the file and the shape", err)
	}
}
