package imageproc

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/npy"
)

// clipPipelines is testdata/clip_pipelines.json.gz.
type clipPipelines struct {
	GROOViST struct {
		Files []struct {
			File string `json:"file"`
		} `json:"files"`
		PixelValues string `json:"pixel_values"`
	} `json:"groovist"`
	CLIPScore struct {
		Files       []string `json:"files"`
		PixelValues string   `json:"pixel_values"`
	} `json:"clipscore"`
}

// countIdentical compares got with rows [row*len(got), …) of want.
func countIdentical(got []float32, want []float32, row int) (same int, maxDiff float64) {
	ref := want[row*len(got) : (row+1)*len(got)]
	for i, v := range got {
		if math.Float32bits(v) == math.Float32bits(ref[i]) {
			same++
		}
		maxDiff = math.Max(maxDiff, math.Abs(float64(v)-float64(ref[i])))
	}
	return same, maxDiff
}

// TestGROOViSTCropsPixelValues: GROOViST opens each region crop, converts
// it to RGB, and runs OpenAI CLIP's preprocess (S = 32 for the fixture's
// tiny model). All values must be float32-identical, JPEG decoding included.
func TestGROOViSTCropsPixelValues(t *testing.T) {
	var idx clipPipelines
	readGzipJSON(t, filepath.Join(testdataDir, "clip_pipelines.json.gz"), &idx)
	want, err := npy.ReadFile(filepath.Join(testdataDir, idx.GROOViST.PixelValues))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := OpenAICLIPConfig(want.Shape[2])
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	total, same := 0, 0
	for i, f := range idx.GROOViST.Files {
		img, err := DecodeFile(filepath.Join(testdataDir, f.File), DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pv, err := p.Preprocess(img, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, d := countIdentical(pv.Data, want.F32, i)
		if s != len(pv.Data) {
			t.Errorf("%s (%dx%d): %d/%d identical, max |diff| %g", f.File, img.Width, img.Height, s, len(pv.Data), d)
		}
		total += len(pv.Data)
		same += s
	}
	t.Logf("GROOViST crops: %d/%d pixel values float32-identical", same, total)
}

// TestCLIPScorePixelValues: CLIPScore runs OpenAI CLIP's preprocess on
// Image.open(path) without converting first, so RGBA images are resized
// premultiplied and palette images with NEAREST. The fixture has JPEG RGB
// and PNG RGB, L, RGBA and P images.
func TestCLIPScorePixelValues(t *testing.T) {
	var idx clipPipelines
	readGzipJSON(t, filepath.Join(testdataDir, "clip_pipelines.json.gz"), &idx)
	want, err := npy.ReadFile(filepath.Join(testdataDir, idx.CLIPScore.PixelValues))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := OpenAICLIPConfig(want.Shape[2])
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	total, same := 0, 0
	for i, f := range idx.CLIPScore.Files {
		src, err := DecodeSourceFile(filepath.Join(testdataDir, f), DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pv, err := p.PreprocessSource(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, d := countIdentical(pv.Data, want.F32, i)
		if s != len(pv.Data) {
			t.Errorf("%s (%dx%d alpha=%v nearest=%v): %d/%d identical, max |diff| %g", f, src.RGB.Width, src.RGB.Height,
				src.Alpha != nil, src.NearestOnly, s, len(pv.Data), d)
		}
		total += len(pv.Data)
		same += s
		if src.Alpha != nil || src.NearestOnly {
			// Converting before resizing (GROOViST's order) must not
			// reproduce these: the fixture really tests the mode handling.
			first, err := p.Preprocess(src.RGB, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := countIdentical(first.Data, want.F32, i); s == len(first.Data) {
				t.Errorf("%s: convert-first preprocessing also matches; the case does not discriminate", f)
			}
		}
	}
	t.Logf("CLIPScore images: %d/%d pixel values float32-identical", same, total)
}
