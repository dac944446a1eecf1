package imageproc

import (
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// TestGoldenPixelValuesOneProcessorImage runs the pixel-value goldens on a
// fixture set in which the first image has a golden for one processor only
// (its ViT array left out of the index).
func TestGoldenPixelValuesOneProcessorImage(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		fixturedir.EditJSON(t, filepath.Join(root, "images", "index.json"), func(m map[string]any) {
			arrays := m["arrays"].(map[string]any)
			images := m["images"].([]any)
			file := images[0].(map[string]any)["file"].(string)
			key := file[:len(file)-len(filepath.Ext(file))] + "_vit_pixel_values"
			if _, ok := arrays[key]; !ok {
				t.Fatalf("no %s to leave out", key)
			}
			delete(arrays, key)
		})
	})
	TestGoldenPixelValues(t)
}
