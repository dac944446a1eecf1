package rovist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/regions"
)

func TestCheckpointAndModelFolders(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one")
	two := filepath.Join(dir, "two")
	for _, p := range []string{filepath.Join(one, "vg.pth.tar"), filepath.Join(two, "a.pth.tar"), filepath.Join(two, "b.pth.tar")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ckpt, vit, err := GroundingFiles(one, "")
	if err != nil || ckpt != filepath.Join(one, "vg.pth.tar") || vit != filepath.Join(one, "vit-base-patch16-224-in21k") {
		t.Errorf("GroundingFiles(folder): %q %q %v", ckpt, vit, err)
	}
	ckpt, albert, err := CoherenceFiles(filepath.Join(two, "b.pth.tar"), "/m/albert")
	if err != nil || ckpt != filepath.Join(two, "b.pth.tar") || albert != "/m/albert" {
		t.Errorf("CoherenceFiles(file, dir): %q %q %v", ckpt, albert, err)
	}
	if _, _, err := CoherenceFiles(one, ""); err != nil {
		t.Error(err)
	}
	if _, err := CheckpointFile(two); err == nil || !strings.Contains(err.Error(), "want one *.pth.tar in the folder, found 2") {
		t.Errorf("two checkpoints: %v", err)
	}
	if _, err := CheckpointFile(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("no such file: %v", err)
	}
	if _, err := LoadGrounder(two, GrounderFiles{}, nil); err == nil || !strings.Contains(err.Error(), "found 2") {
		t.Errorf("LoadGrounder, two checkpoints: %v", err)
	}
}

// Regions already read (Entities) are used without reading Regions, in
// RoViST's integer-id reading; a file with a string id is refused as
// regions.Load with IntegerIDs refuses it.
func TestGrounderFilesEntitiesAreNotReadAgain(t *testing.T) {
	read := func(csv string) *regions.Entities {
		e, err := regions.Read(strings.NewReader(csv), "e.csv", regions.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	ints := read("image_id,bbox\n007,[1]\n")
	absent := filepath.Join(t.TempDir(), "absent.csv")
	g := &Grounder{}
	if err := g.loadFiles(GrounderFiles{Regions: absent, Entities: ints, Crops: "c"}, nil); err != nil {
		t.Fatalf("loadFiles with Entities read %s: %v", absent, err)
	}
	if cf, ok := g.Regions.(CropFolder); !ok || cf.Entities != ints || cf.Dir != "c" || len(cf.Entities.Regions("7")) != 1 {
		t.Errorf("regions = %+v, want the given entities with crops c", g.Regions)
	}
	err := g.loadFiles(GrounderFiles{Entities: read("image_id,bbox\nx1,[1]\n")}, nil)
	if err == nil || err.Error() != `regions e.csv line 2: image id "x1" is not an integer` {
		t.Errorf("string ids: err = %v", err)
	}
	if err := g.loadFiles(GrounderFiles{Regions: absent}, nil); !os.IsNotExist(err) {
		t.Errorf("without Entities, Regions is read: err = %v", err)
	}
}
