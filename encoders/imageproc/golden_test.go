package imageproc

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
	"github.com/storyeval/storyeval/internal/npy"
)

// imagesIndex is the part of images/index.json the golden tests read.
type imagesIndex struct {
	Images []struct {
		File            string `json:"file"`
		Mode            string `json:"mode"`
		Width           int    `json:"width"`
		Height          int    `json:"height"`
		CLIPResizedHW   [2]int `json:"clip_resized_hw"`
		CLIPCropTopLeft [2]int `json:"clip_crop_top_left"`
	} `json:"images"`
	Arrays map[string]struct {
		File  string `json:"file"`
		Shape []int  `json:"shape"`
		DType string `json:"dtype"`
	} `json:"arrays"`
}

func imagesDir() string { return filepath.Join(fixturedir.Dir(), "images") }

func loadImagesIndex(t *testing.T) imagesIndex {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(imagesDir(), "index.json"))
	if err != nil {
		t.Fatalf("reading the image fixture index: %v", err)
	}
	var idx imagesIndex
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatalf("parsing images/index.json: %v", err)
	}
	if len(idx.Images) == 0 {
		t.Fatal("images/index.json lists no images")
	}
	return idx
}

// readGolden reads an array named in the index, from the .npy file or its
// gzipped copy (the repository keeps the goldens gzipped).
func readGolden(t *testing.T, dir, file string) *npy.Array {
	t.Helper()
	p := filepath.Join(dir, file)
	if _, err := os.Stat(p); err != nil {
		p += ".gz"
	}
	a, err := npy.ReadFile(p)
	if err != nil {
		t.Fatalf("reading golden %s: %v", file, err)
	}
	return a
}

// TestGoldenPixelValues checks every processor output of every fixture
// image for float32 equality with transformers 4.29 / Pillow 9.4.
func TestGoldenPixelValues(t *testing.T) {
	idx := loadImagesIndex(t)
	dir := imagesDir()
	procs := map[string]*Processor{}
	for _, name := range []string{"vit", "clip"} {
		cfg, err := LoadProcessorConfig(filepath.Join(dir, name+"_preprocessor_config.json"))
		if err != nil {
			t.Fatal(err)
		}
		if procs[name], err = NewProcessor(cfg); err != nil {
			t.Fatal(err)
		}
	}
	total, identical := 0, 0
	for _, im := range idx.Images {
		stem := strings.TrimSuffix(im.File, filepath.Ext(im.File))
		img, err := DecodeFile(filepath.Join(dir, im.File), nil)
		if err != nil {
			t.Fatal(err)
		}
		if img.Width != im.Width || img.Height != im.Height {
			t.Fatalf("%s: decoded %dx%d, index says %dx%d", im.File, img.Width, img.Height, im.Width, im.Height)
		}
		if w, h := ShortestEdgeSize(img.Width, img.Height, procs["clip"].cfg.Size.ShortestEdge); h != im.CLIPResizedHW[0] || w != im.CLIPResizedHW[1] {
			t.Errorf("%s: CLIP resize to %dx%d (h×w), want %v", im.File, h, w, im.CLIPResizedHW)
		}
		for name, p := range procs {
			key := stem + "_" + name + "_pixel_values"
			meta, ok := idx.Arrays[key]
			if !ok {
				t.Fatalf("index has no array %s", key)
			}
			want := readGolden(t, dir, meta.File)
			got, err := p.Preprocess(img, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", im.File, name, err)
			}
			if len(want.F32) != len(got.Data) {
				t.Fatalf("%s %s: %d values, golden has %d (shape %v)", im.File, name, len(got.Data), len(want.F32), want.Shape)
			}
			same, maxDiff := 0, 0.0
			for i, v := range got.Data {
				if math.Float32bits(v) == math.Float32bits(want.F32[i]) {
					same++
				}
				maxDiff = math.Max(maxDiff, math.Abs(float64(v)-float64(want.F32[i])))
			}
			total += len(got.Data)
			identical += same
			if same != len(got.Data) {
				t.Errorf("%s %s: %d/%d values bit-identical, max |diff| %g", im.File, name, same, len(got.Data), maxDiff)
			}
		}
	}
	t.Logf("pixel_values: %d/%d float32 values bit-identical to the goldens", identical, total)
}
