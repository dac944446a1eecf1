package rovist

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
)

// CheckpointFile resolves a checkpoint given as the file itself or as
// the folder of a released model holding exactly one *.pth.tar.
func CheckpointFile(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return path, nil
	}
	m, _ := filepath.Glob(filepath.Join(path, "*.pth.tar"))
	if len(m) != 1 {
		return "", fmt.Errorf("%s: want one *.pth.tar in the folder, found %d", path, len(m))
	}
	return m[0], nil
}

// GroundingFiles resolves RoViST-VG's checkpoint (CheckpointFile) and its
// ViT folder: vitDir, or vit-base-patch16-224-in21k beside the checkpoint
// when vitDir is empty (the layout of the released model).
func GroundingFiles(checkpoint, vitDir string) (ckpt, vit string, err error) {
	return modelFiles(checkpoint, vitDir, "vit-base-patch16-224-in21k")
}

// CoherenceFiles resolves RoViST-C's checkpoint (CheckpointFile) and its
// ALBERT folder: albertDir, or albert-large-v1 beside the checkpoint when
// albertDir is empty.
func CoherenceFiles(checkpoint, albertDir string) (ckpt, albert string, err error) {
	return modelFiles(checkpoint, albertDir, "albert-large-v1")
}

// modelFiles resolves checkpoint and the encoder folder dir, by default
// the folder named def beside the checkpoint.
func modelFiles(checkpoint, dir, def string) (string, string, error) {
	ckpt, err := CheckpointFile(checkpoint)
	if err != nil {
		return "", "", err
	}
	if dir == "" {
		dir = filepath.Join(filepath.Dir(ckpt), def)
	}
	return ckpt, dir, nil
}

// GrounderFiles names the inputs of LoadGrounder besides the checkpoint.
type GrounderFiles struct {
	// ViT is the ViT folder (GroundingFiles' default when empty).
	ViT string
	// GloVe is the GloVe text file; only the vectors of LoadGrounder's
	// words are kept. Empty: no GloVe (a grounder that only warms a cache).
	GloVe string
	// IDF is the idf table (LoadIDF); empty: none, for VGOptions.NoIDF.
	IDF string
	// Regions is the regions CSV, read with RoViST's integer image ids;
	// Crops the folder of its crops.
	Regions, Crops string
	// Entities, when not nil, are the regions already read (by a caller
	// that also runs GROOViST on them): Regions is not read again, and
	// RoViST's reading is taken with Entities.View(regions.IntegerIDs).
	Entities *regions.Entities
	// Decode bounds and configures the crops' decoding.
	Decode imageproc.DecodeOptions
	// Encoder chooses the ViT's backend (default: the CPU).
	Encoder encoders.Options
}

// LoadGrounder loads RoViST-VG from checkpoint (a file, or a folder with
// one *.pth.tar) and f: the model, the GloVe vectors of words (the nouns
// to score, see StoryNouns), the idf table and the regions. Cache fields
// are left unset.
func LoadGrounder(checkpoint string, f GrounderFiles, words []string) (*Grounder, error) {
	ckpt, vit, err := GroundingFiles(checkpoint, f.ViT)
	if err != nil {
		return nil, err
	}
	m, err := LoadGroundingModel(ckpt, vit, f.Encoder)
	if err != nil {
		return nil, err
	}
	g := &Grounder{Model: m}
	if err := g.loadFiles(f, words); err != nil {
		m.Close()
		return nil, err
	}
	return g, nil
}

func (g *Grounder) loadFiles(f GrounderFiles, words []string) error {
	var err error
	if f.GloVe != "" {
		if g.GloVe, err = LoadGloVe(f.GloVe, words, GloVeOptions{}); err != nil {
			return err
		}
	}
	if f.IDF != "" {
		if g.IDF, err = LoadIDF(f.IDF, limits.Limits{}); err != nil {
			return err
		}
	}
	ent := f.Entities
	if ent != nil {
		ent, err = ent.View(regions.IntegerIDs)
	} else {
		ent, err = regions.Load(f.Regions, regions.Options{IDs: regions.IntegerIDs})
	}
	if err != nil {
		return err
	}
	g.Regions = CropFolder{Entities: ent, Dir: f.Crops, Decode: f.Decode}
	return nil
}
