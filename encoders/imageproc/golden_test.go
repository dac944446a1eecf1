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

// TestGoldenPixelValues checks every processor output the image index
// lists for float32 equality with transformers 4.29 / Pillow 9.4: the
// processors are the *_preprocessor_config.json files of the image folder,
// and an image is checked with each processor that has a golden array for
// it (<stem>_<processor>_pixel_values), so a set whose images are covered
// by one processor only runs unchanged. Every listed array must be checked.
func TestGoldenPixelValues(t *testing.T) {
	idx := loadImagesIndex(t)
	dir := imagesDir()
	t.Logf("fixtures: %s", dir)
	configs, _ := filepath.Glob(filepath.Join(dir, "*_preprocessor_config.json"))
	procs := map[string]*Processor{}
	for _, path := range configs {
		cfg, err := LoadProcessorConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(path), "_preprocessor_config.json")
		if procs[name], err = NewProcessor(cfg); err != nil {
			t.Fatal(err)
		}
	}
	checked := map[string]bool{}
	total, identical := 0, 0
	for _, im := range idx.Images {
		stem := strings.TrimSuffix(im.File, filepath.Ext(im.File))
		img, err := DecodeFile(filepath.Join(dir, im.File), DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if img.Width != im.Width || img.Height != im.Height {
			t.Fatalf("%s: decoded %dx%d, index says %dx%d", im.File, img.Width, img.Height, im.Width, im.Height)
		}
		if clip, ok := procs["clip"]; ok && im.CLIPResizedHW != [2]int{} {
			if w, h := ShortestEdgeSize(img.Width, img.Height, clip.cfg.Size.ShortestEdge); h != im.CLIPResizedHW[0] || w != im.CLIPResizedHW[1] {
				t.Errorf("%s: CLIP resize to %dx%d (h×w), want %v", im.File, h, w, im.CLIPResizedHW)
			}
		}
		for name, p := range procs {
			key := stem + "_" + name + "_pixel_values"
			meta, ok := idx.Arrays[key]
			if !ok {
				continue // this processor has no golden for this image
			}
			checked[key] = true
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
	for key := range idx.Arrays {
		if strings.HasSuffix(key, "_pixel_values") && !checked[key] {
			t.Errorf("golden %s was not checked (no such image or no %s processor config)", key, key)
		}
	}
	if total == 0 {
		t.Fatalf("no pixel values checked in %s", dir)
	}
	t.Logf("pixel_values: %d/%d float32 values bit-identical to the goldens (%d arrays)", identical, total, len(checked))
}

// testdataDir holds this package's own test data (testdata/encoders/imageproc
// of the repository, a nested module left out of the module zip).
var testdataDir = fixturedir.Data("imageproc")
