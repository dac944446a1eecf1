package groovist

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// TestWriters checks both writers on hand-made results: phrase order kept
// (not sorted), an undefined story written NaN/null and left out of the
// mean of defined scores, a failed image counted and its error shown.
func TestWriters(t *testing.T) {
	res := []Result{
		{ID: "s1", Score: 0.5, Defined: true, TemporalMisalignment: 0.25, NPProportion: 0.5,
			NPs:    []NPScore{{NP: "the dog", Score: 0.75, Weight: 4, MaxCosine: 0.5, Scaled: 0.75, Alignment: []float32{0.5}, BestImage: 0, BestRegion: 1}, {NP: "a cat", Score: -0.25}},
			Images: []ImageStatus{{ID: "7", Regions: 3, Used: 2}, {ID: "8", Err: errors.New("no crop")}}},
		{ID: "s2", Score: math.NaN(), TemporalMisalignment: math.NaN(), NPProportion: 0},
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, res); err != nil {
		t.Fatal(err)
	}
	// Mean is NaN with an undefined story (NaN propagates), the defined mean 0.5.
	want := "id,groovist,nps,failed_images,temporal_misalignment,np_proportion\ns1,0.5,2,1,0.25,0.5\ns2,NaN,0,0,NaN,0\n(mean),NaN,,,,\n(mean of defined),0.5,,,,\n"
	if csv.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", csv.String(), want)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, res[:1], 0.6, true); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{
  "theta": 0.6,
  "mean": 0.5,
  "mean_defined": 0.5,
  "stories": [
    {
      "id": "s1",
      "groovist": 0.5,
      "defined": true,
      "np_scores": {
        "the dog": 0.75,
        "a cat": -0.25
      },
      "temporal_misalignment": 0.25,
      "np_proportion": 0.5,
      "images": [
        {
          "id": "7",
          "regions": 3,
          "used": 2
        },
        {
          "id": "8",
          "regions": 0,
          "used": 0,
          "error": "no crop"
        }
      ],
      "nps": [
        {
          "np": "the dog",
          "score": 0.75,
          "weight": 4,
          "max_cosine": 0.5,
          "scaled": 0.75,
          "alignment": [
            0.5
          ],
          "best_image": 0,
          "best_region": 1
        },
        {
          "np": "a cat",
          "score": -0.25,
          "weight": 0,
          "max_cosine": 0,
          "scaled": 0,
          "alignment": null,
          "best_image": 0,
          "best_region": 0
        }
      ]
    }
  ]
}
`
	if js.String() != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", js.String(), wantJSON)
	}
}
