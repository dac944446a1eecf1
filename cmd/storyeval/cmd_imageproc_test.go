package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/npy"
)

// TestImageprocGolden runs the subcommand on two fixture PNGs with the CLIP
// config and checks the written .npy against the transformers goldens.
func TestImageprocGolden(t *testing.T) {
	dir := "../../testdata/encoders/fixtures/images"
	out := filepath.Join(t.TempDir(), "pv.npy")
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"imageproc", "-config", dir + "/clip_preprocessor_config.json", "-npy", out,
		dir + "/img0.png", dir + "/img1.png"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var res struct {
		Processor string `json:"processor"`
		Images    []struct {
			File          string
			Width, Height int
			Shape         [3]int
		} `json:"images"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("output %s: %v", stdout.String(), err)
	}
	if res.Processor != "CLIPImageProcessor" || len(res.Images) != 2 || res.Images[1].Width != 157 || res.Images[1].Height != 321 ||
		res.Images[0].Shape != [3]int{3, 224, 224} {
		t.Fatalf("summary %+v", res)
	}
	got, err := npy.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Shape) != 4 || got.Shape[0] != 2 {
		t.Fatalf("npy shape %v, want [2 3 224 224]", got.Shape)
	}
	per := 3 * 224 * 224
	for i, name := range []string{"img0", "img1"} {
		want, err := npy.ReadFile(dir + "/" + name + "_clip_pixel_values.npy.gz")
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range want.F32 {
			if math.Float32bits(v) != math.Float32bits(got.F32[i*per+j]) {
				t.Fatalf("%s value %d: %v, golden %v", name, j, got.F32[i*per+j], v)
			}
		}
	}
}

// TestImageprocCLIPScoreOrder checks -processor openai-clip -resize-first on
// the RGBA fixture image against CLIPScore's pixel_values (row 7 of the
// image order f,a,d,h,i,b,j,e,c,g is img_e, the RGBA PNG).
func TestImageprocCLIPScoreOrder(t *testing.T) {
	dir := "../../testdata/encoders/imageproc"
	out := filepath.Join(t.TempDir(), "pv.npy")
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"imageproc", "-processor", "openai-clip", "-size", "32", "-resize-first", "-npy", out, dir + "/clipscore/img_e.png"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := npy.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.ReadFile(dir + "/clipscore_pixel_values.npy.gz")
	if err != nil {
		t.Fatal(err)
	}
	per := 3 * 32 * 32
	ref := want.F32[7*per : 8*per]
	for j, v := range ref {
		if math.Float32bits(v) != math.Float32bits(got.F32[j]) {
			t.Fatalf("value %d: %v, golden %v", j, got.F32[j], v)
		}
	}
}

func TestImageprocErrors(t *testing.T) {
	dir := "../../testdata/encoders/fixtures/images"
	cases := [][]string{
		{"imageproc"},
		{"imageproc", "-processor", "deit", dir + "/img0.png"},
		{"imageproc", "-box", "1,2,3", dir + "/img0.png"},
		{"imageproc", "-crop-rounding", "up", dir + "/img0.png"},
		{"imageproc", dir + "/index.json"},
		{"imageproc", "-resize-first", "-box", "1,2,3,4", dir + "/img0.png"},
	}
	for _, args := range cases {
		var stdout, stderr bytes.Buffer
		if code := runMain(args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "imageproc") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"imageproc", "-processor", "clip", "-box", "[10.5, 20.25, 150.0, 300.0]", dir + "/img1.png"}, &stdout, &stderr); code != 0 {
		t.Fatalf("box crop: exit %d: %s", code, stderr.String())
	}
}
