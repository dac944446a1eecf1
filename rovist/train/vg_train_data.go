package train

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// ResolveVGInit resolves a RoViST-VG starting point to the checkpoint file
// NewVGTrainer reads and the folder of the ViT's config.json: a file is
// taken as is, with its own folder; a folder gives its model.safetensors
// (a saved VGTrainer model) or else its pytorch_model.bin (the HuggingFace
// ViT). A non-empty vitDir replaces the folder.
func ResolveVGInit(initPath, vitDir string) (file, dir string, err error) {
	st, err := os.Stat(initPath)
	if err != nil {
		return "", "", err
	}
	file, dir = initPath, filepath.Dir(initPath)
	if st.IsDir() {
		dir = initPath
		file = ""
		for _, name := range []string{VGModelFile, "pytorch_model.bin"} {
			if _, err := os.Stat(filepath.Join(initPath, name)); err == nil {
				file = filepath.Join(initPath, name)
				break
			}
		}
		if file == "" {
			return "", "", fmt.Errorf("%s has neither model.safetensors nor pytorch_model.bin", initPath)
		}
	}
	if vitDir != "" {
		dir = vitDir
	}
	return file, dir, nil
}

// VGSplit says how SplitVGPairs divides region–phrase pairs.
type VGSplit struct {
	// Valid, when set, makes the validation pairs those of its stories'
	// images, and all other pairs the training pairs.
	Valid *story.Set
	// Fraction is the share of the pairs held out for validation, chosen
	// by a permutation seeded with Seed, when Valid is nil (0: none).
	Fraction float64
	Seed     int64
	// Train, when set, keeps only the training pairs of its stories'
	// images.
	Train *story.Set
}

// SplitVGPairs splits pairs into training and validation pairs as s says;
// both keep the pairs' order.
func SplitVGPairs(pairs []rovist.VGPair, s VGSplit) (train, valid []rovist.VGPair) {
	if s.Valid != nil {
		valid = rovist.VGPairsOfStories(s.Valid, pairs)
		in := map[rovist.VGPair]bool{}
		for _, p := range valid {
			in[p] = true
		}
		for _, p := range pairs {
			if !in[p] {
				train = append(train, p)
			}
		}
	} else {
		order := rand.New(rand.NewSource(s.Seed)).Perm(len(pairs))
		nValid := int(float64(len(pairs))*s.Fraction + 0.5)
		hold := map[int]bool{}
		for _, i := range order[:nValid] {
			hold[i] = true
		}
		for i, p := range pairs {
			if hold[i] {
				valid = append(valid, p)
			} else {
				train = append(train, p)
			}
		}
	}
	if s.Train != nil {
		train = rovist.VGPairsOfStories(s.Train, train)
	}
	return train, valid
}
