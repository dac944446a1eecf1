package rovist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
