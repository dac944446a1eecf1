package main

// Inputs of the score-vs-command benchmarks: full-size models with random
// weights written as the files a user would have (safetensors, config.json),
// synthetic region crops, and a GloVe file and an idf pickle covering the
// stories' nouns.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	encrandmodel "github.com/storyeval/storyeval/encoders/randmodel"
	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// writeJSONFile writes v as JSON to path.
func writeJSONFile(tb testing.TB, path string, v any) string {
	tb.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// writeRandomRoViSTVG writes a RoViST-VG state_dict of
// google/vit-base-patch16-224-in21k's shape with random weights
// (checkpoint) and the ViT folder (config.json, preprocessor_config.json)
// that goes with it.
func writeRandomRoViSTVG(b *testing.B, dir string) (checkpoint, vitDir string) {
	b.Helper()
	cfg := encrandmodel.ViTB16In21k()
	vitDir = mkdir(b, filepath.Join(dir, "vit-base-patch16-224-in21k"))
	writeJSONFile(b, filepath.Join(vitDir, "config.json"), cfg)
	writeJSONFile(b, filepath.Join(vitDir, "preprocessor_config.json"), encrandmodel.ViTIn21kPreprocessor())
	checkpoint = filepath.Join(dir, "r2p_model_epoch2.safetensors")
	if err := encrandmodel.WriteSafetensors(checkpoint, encrandmodel.RoViSTVGParams(cfg), 1); err != nil {
		b.Fatal(err)
	}
	return checkpoint, vitDir
}

// writeRandomCLIP writes openai/clip-vit-base-patch32's config.json and a
// model.safetensors of its shape with random weights into dir, and links
// the real CLIP BPE vocabulary (from the repository's tokenizer fixtures)
// next to them, so that dir is a complete CLIP folder.
func writeRandomCLIP(b *testing.B, dir string) {
	b.Helper()
	if err := encrandmodel.WriteCLIP(dir, encrandmodel.CLIPB32(), 1); err != nil {
		b.Fatal(err)
	}
	tokDir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"vocab.json.gz", "merges.txt.gz"} {
		if err := os.Symlink(filepath.Join(tokDir, f), filepath.Join(dir, f)); err != nil {
			b.Fatal(err)
		}
	}
}

// writeRegionCrops writes, for every image id, perImage JPEG crops of 60–160
// × 40–120 pixels named as the VIST-entities folder names them, and the
// regions CSV (image_id,bbox) listing them; it returns the CSV path and
// the crops folder.
func writeRegionCrops(b *testing.B, dir string, imageIDs []string, perImage int) (csvPath, crops string) {
	b.Helper()
	csvPath, crops, err := randmodel.WriteRegionCrops(dir, imageIDs, perImage, 4)
	if err != nil {
		b.Fatal(err)
	}
	return csvPath, crops
}

// writeNounTables writes a GloVe text file with a random 300-d vector for
// every noun of stories (and GloVe's "unk") and idf_dict.pkl, a pickled
// dict {noun: idf} covering the same nouns, as the RoViST release has them.
func writeNounTables(b *testing.B, dir string, stories []story.Story) (glovePath, idfPath string) {
	b.Helper()
	nouns, err := rovist.StoryNouns(stories, nil)
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for _, ns := range nouns {
		words = append(words, ns...)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	glovePath = filepath.Join(dir, "glove.6B.300d.txt")
	if err := randmodel.WriteGloVe(glovePath, append(slices.Clone(words), rovist.GloVeUnknown), 300, 5); err != nil {
		b.Fatal(err)
	}
	idfPath = filepath.Join(dir, "idf_dict.pkl")
	if err := randmodel.WriteIDFPickle(idfPath, words, 6); err != nil {
		b.Fatal(err)
	}
	return glovePath, idfPath
}

// linkModels makes a models folder in dir holding symbolic links
// (relative path in the layout → target).
func linkModels(b *testing.B, dir string, links map[string]string) string {
	b.Helper()
	models := filepath.Join(dir, "models")
	for link, target := range links {
		p := filepath.Join(models, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			b.Fatal(err)
		}
	}
	return models
}

// mkdir creates dir (and its parents) and returns it.
func mkdir(b *testing.B, dir string) string {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	return dir
}
