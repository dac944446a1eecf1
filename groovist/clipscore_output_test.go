package groovist_test

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/story"
)

// TestCLIPScoreWriters checks both layouts on two captions, one with
// references: the means are hand computed ((0.5+0.75)/2 = 0.625; the
// RefCLIPScore mean is over the captioned one only), NaN is "NaN" in CSV
// and the members of a caption without references are left out of JSON.
func TestCLIPScoreWriters(t *testing.T) {
	scores := []groovist.CaptionScore{
		{ID: "img_a", CLIPScore: 0.5, RefCLIPScore: 0.6, MaxRefCosine: 0.75, HasRefs: true},
		{ID: "img_b", CLIPScore: 0.75, RefCLIPScore: math.NaN(), MaxRefCosine: math.NaN()},
	}
	var csv, js bytes.Buffer
	if err := groovist.WriteCLIPScoreCSV(&csv, scores); err != nil {
		t.Fatal(err)
	}
	if want := "id,CLIPScore,RefCLIPScore\nimg_a,0.5,0.6\nimg_b,0.75,NaN\n(mean),0.625,0.6\n"; csv.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", csv.String(), want)
	}
	if err := groovist.WriteCLIPScoreJSON(&js, scores, true); err != nil {
		t.Fatal(err)
	}
	want := `{
  "CLIPScore": 0.625,
  "RefCLIPScore": 0.6,
  "items": [
    {
      "id": "img_a",
      "CLIPScore": 0.5,
      "RefCLIPScore": 0.6,
      "max_ref_cosine": 0.75
    },
    {
      "id": "img_b",
      "CLIPScore": 0.75
    }
  ]
}
`
	if js.String() != want {
		t.Errorf("JSON\n%s\nwant\n%s", js.String(), want)
	}
	js.Reset()
	if err := groovist.WriteCLIPScoreJSON(&js, scores[1:], false); err != nil || strings.Contains(js.String(), "RefCLIPScore") {
		t.Errorf("JSON without references: %v\n%s", err, js.String())
	}
}

// TestLoadImageTable reads a VWP table and checks the errors: a missing
// file is the *fs.PathError, a wrong shape names the file and the shape.
func TestLoadImageTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vwp.json")
	if err := os.WriteFile(path, []byte(`{"scene1": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []groovist.Input{{Story: story.Story{ID: "scene1;2"}}}
	table, err := groovist.LoadImageTable(path, groovist.VWP, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := groovist.AssignImageIDs(inputs, groovist.VWP, table); err != nil || len(inputs[0].Images) != 3 || inputs[0].Images[2].ID != "scene1_2" {
		t.Errorf("VWP table: %v, images %v; want the scene's 3 images", err, inputs[0].Images)
	}
	if _, err := groovist.LoadImageTable(filepath.Join(dir, "none.json"), groovist.VWP, limits.Limits{}); !errors.As(err, new(*fs.PathError)) {
		t.Errorf("missing file: %v, want an *fs.PathError", err)
	}
	if _, err := groovist.LoadImageTable(path, groovist.VIST, limits.Limits{}); err == nil || !strings.HasPrefix(err.Error(), path+": want {story id: [image ids]}") {
		t.Errorf("VIST table of a VWP file: %v, want an error naming the file and the shape", err)
	}
}
