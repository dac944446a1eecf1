package groovist_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/groovist"
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
