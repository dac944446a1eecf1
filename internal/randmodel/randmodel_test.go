package randmodel_test

import (
	"image/jpeg"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/internal/randmodel"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/rovist"
)

func TestWriteGradientJPEG(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(1))
	a, b := filepath.Join(dir, "a.jpg"), filepath.Join(dir, "b.jpg")
	if err := randmodel.WriteGradientJPEG(a, 30, 20, rng); err != nil {
		t.Fatal(err)
	}
	if err := randmodel.WriteGradientJPEG(b, 30, 20, rng); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || string(da) == string(db) {
		t.Error("empty or identical images")
	}
}

func TestWriteRegionCropsReadable(t *testing.T) {
	ids := []string{"101", "102"}
	csvPath, crops, err := randmodel.WriteRegionCrops(t.TempDir(), ids, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	ents, err := regions.Load(csvPath, regions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		regs := ents.Regions(id)
		if len(regs) != 3 {
			t.Fatalf("image %s: %d regions, want 3", id, len(regs))
		}
		for _, r := range regs {
			f, err := os.Open(regions.CropPath(crops, id, r.BBox))
			if err != nil {
				t.Fatal(err)
			}
			img, err := jpeg.Decode(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !r.HasBox || img.Bounds().Dx() != int(r.Box[2]-r.Box[0]) || img.Bounds().Dy() != int(r.Box[3]-r.Box[1]) {
				t.Errorf("%s %s: crop %v", id, r.BBox, img.Bounds())
			}
		}
	}
}

// TestWriteGloVeLoads checks that RoViST's GloVe reader reads every word
// with its dimension and that words get different vectors.
func TestWriteGloVeLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "glove.txt")
	words := []string{"dog", "beach", rovist.GloVeUnknown}
	if err := randmodel.WriteGloVe(path, words, 300, 1); err != nil {
		t.Fatal(err)
	}
	g, err := rovist.LoadGloVe(path, nil, rovist.GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != len(words) || g.Dim() != 300 {
		t.Fatalf("%d words of dimension %d, want %d of 300", g.Len(), g.Dim(), len(words))
	}
	dog, _ := g.Vector("dog")
	beach, ok := g.Vector("beach")
	if !ok || slices.Equal(dog, beach) {
		t.Error("beach missing or equal to dog")
	}
}

// TestWriteIDFPickleLoads checks that RoViST's idf reader unpickles every
// word with a weight in [1, 4).
func TestWriteIDFPickleLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idf_dict.pkl")
	words := []string{"dog", "beach", "café"}
	if err := randmodel.WriteIDFPickle(path, words, 1); err != nil {
		t.Fatal(err)
	}
	idf, err := rovist.LoadIDF(path, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(idf) != len(words) {
		t.Fatalf("%d words, want %d", len(idf), len(words))
	}
	for _, w := range words {
		if v, ok := idf[w]; !ok || v < 1 || v >= 4 {
			t.Errorf("%s: %v (present %v), want a weight in [1, 4)", w, v, ok)
		}
	}
}
