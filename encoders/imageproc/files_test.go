package imageproc

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/npy"
)

// TestPreprocessFilesGolden preprocesses img0 and img1 with the fixture's
// CLIP config as one batch: the values are the transformers goldens bit for
// bit, the summaries give img1's 157×321 size and statistics computed here
// from the values, and WriteNPY writes the [2,3,224,224] array back.
func TestPreprocessFilesGolden(t *testing.T) {
	dir := imagesDir()
	t.Logf("fixtures: %s", dir)
	cfg, err := LoadProcessorConfig(filepath.Join(dir, "clip_preprocessor_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{filepath.Join(dir, "img0.png"), filepath.Join(dir, "img1.png")}
	b, err := p.PreprocessFiles(paths, FilesOptions{KeepValues: true})
	if err != nil {
		t.Fatal(err)
	}
	per := 3 * 224 * 224
	if b.Processor != "CLIPImageProcessor" || len(b.Images) != 2 || len(b.Values) != 2*per ||
		b.Images[1].Width != 157 || b.Images[1].Height != 321 || b.Images[0].Shape != [3]int{3, 224, 224} {
		t.Fatalf("batch: processor %s, %d images, %d values, %+v", b.Processor, len(b.Images), len(b.Values), b.Images)
	}
	for i, name := range []string{"img0", "img1"} {
		want := readGolden(t, dir, name+"_clip_pixel_values.npy")
		vals := b.Values[i*per : (i+1)*per]
		for j, v := range want.F32 {
			if math.Float32bits(v) != math.Float32bits(vals[j]) {
				t.Fatalf("%s value %d: %v, golden %v", name, j, vals[j], v)
			}
		}
		lo, hi, sum := float64(vals[0]), float64(vals[0]), 0.0
		for _, v := range vals {
			lo, hi, sum = min(lo, float64(v)), max(hi, float64(v)), sum+float64(v)
		}
		s := b.Images[i]
		if s.File != paths[i] || float64(s.Min) != lo || float64(s.Max) != hi || float64(s.Mean) != sum/float64(per) ||
			len(s.First) != 5 || float64(s.First[4]) != float64(vals[4]) {
			t.Fatalf("%s summary %+v; want min %v max %v mean %v", name, s, lo, hi, sum/float64(per))
		}
	}
	var buf bytes.Buffer
	if err := b.WriteNPY(&buf); err != nil {
		t.Fatal(err)
	}
	a, err := npy.Read(&buf)
	if err != nil || len(a.Shape) != 4 || a.Shape[0] != 2 || a.Shape[3] != 224 || len(a.F32) != len(b.Values) || a.F32[per+7] != b.Values[per+7] {
		t.Fatalf("WriteNPY: shape %v, %d values, err %v", a.Shape, len(a.F32), err)
	}
	js, err := json.Marshal(b)
	if err != nil || !strings.HasPrefix(string(js), `{"images":[{"file":`) || !strings.HasSuffix(string(js), `],"processor":"CLIPImageProcessor"}`) {
		t.Fatalf("JSON %.200s…, err %v", js, err)
	}
}

// TestPreprocessFilesBoxAndShapes: a Box crops first, as Crop then
// Preprocess; ResizeFirst is PreprocessSource; images of different shapes
// (a CLIP processor keeps the aspect ratio without a center crop here)
// are an error naming the second file; without KeepValues no values are
// kept.
func TestPreprocessFilesBoxAndShapes(t *testing.T) {
	dir := imagesDir()
	cfg, err := DefaultConfig(CLIP)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "img1.png")
	box := Box{Left: 10.5, Top: 20.25, Right: 150, Bottom: 300}
	b, err := p.PreprocessFiles([]string{path}, FilesOptions{Box: &box, ResizeFirst: true, KeepValues: true})
	if err != nil {
		t.Fatal(err)
	}
	img, err := DecodeFile(path, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	crop, err := Crop(img, box)
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Preprocess(crop, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Values) != len(want.Data) || b.Values[1000] != want.Data[1000] || b.Images[0].Width != 157 {
		t.Fatalf("box: %d values, summary %+v", len(b.Values), b.Images[0])
	}
	src, err := DecodeSourceFile(path, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantSrc, err := p.PreprocessSource(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = p.PreprocessFiles([]string{path}, FilesOptions{ResizeFirst: true}); err != nil || b.Values != nil ||
		float64(b.Images[0].First[0]) != float64(wantSrc.Data[0]) {
		t.Fatalf("resize first: %+v, err %v", b, err)
	}
	cfg.DoCenterCrop = false
	if p, err = NewProcessor(cfg); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(dir, "img0.png")
	if _, err := p.PreprocessFiles([]string{path, second}, FilesOptions{}); err == nil || !strings.HasPrefix(err.Error(), second+": pixel_values shape") {
		t.Fatalf("shapes differ: err %v", err)
	}
}
