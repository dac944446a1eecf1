package checkpoint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// TestFixtureTestsWithoutAModel runs the fixture-reading tests of this
// package on a set with the first model (in name order) left out, so that
// none of them depends on a model by name.
func TestFixtureTestsWithoutAModel(t *testing.T) {
	_, dirs := fixtureModels(t)
	fixturedir.Variant(t, func(root string) {
		fixturedir.EditJSON(t, filepath.Join(root, "manifest.json"), func(m map[string]any) {
			fixtures := m["fixtures"].(map[string]any)
			for name, f := range fixtures {
				if f.(map[string]any)["dir"] == dirs[0] {
					delete(fixtures, name)
				}
			}
		})
		if err := os.RemoveAll(filepath.Join(root, dirs[0])); err != nil {
			t.Fatal(err)
		}
	})
	if _, after := fixtureModels(t); len(after) != len(dirs)-1 {
		t.Fatalf("variant has %d models, want %d", len(after), len(dirs)-1)
	}
	t.Run("ConcurrentReadsAndClose", TestConcurrentReadsAndClose)
	t.Run("OpenDirSharded", TestOpenDirSharded)
	t.Run("FixtureBinMatchesSafetensors", TestFixtureBinMatchesSafetensors)
}
