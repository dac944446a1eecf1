package rovist

import (
	"bytes"
	"math"
	"testing"
)

// TestWriters checks both writers on two hand-made stories: one with every
// score, one whose NR is undefined (NaN, left out of the system means).
func TestWriters(t *testing.T) {
	rows := []Scores{
		{ID: "s1", VG: &VGResult{Score: 0.5, Scaled: 0.25, Defined: true,
			Nouns:  []NounGrounding{{Noun: "dog", InGloVe: true, IDF: 2, Recall: 0.5, BestImage: 1, BestRegion: 0}},
			Images: []ImageRegions{{ID: "7", Listed: 3, RegionLabels: []string{"a", "b"}}}},
			C:  &CoherenceResult{Score: 0.75, Defined: true, Pairs: []CoherencePair{{First: 0, Second: 1, A: "A.", B: "B.", Prob: 0.75}}},
			NR: &NRResult{Score: 1, Defined: true}, Overall: 2.25, OverallDefined: true},
		{ID: "s2", VG: &VGResult{Score: 0.25, Scaled: 0.125, Defined: true},
			C:  &CoherenceResult{Score: 0.25, Defined: true},
			NR: &NRResult{Score: math.NaN()}, Overall: math.NaN()},
	}
	var csv bytes.Buffer
	if err := WriteCSV(&csv, rows, Computed{VG: true, C: true, NR: true}); err != nil {
		t.Fatal(err)
	}
	want := "id,vg,vg_scaled,c,nr,rovist\ns1,0.5,0.25,0.75,1,2.25\ns2,0.25,0.125,0.25,NaN,NaN\n(system),0.375,0.1875,0.5,1,2.25\n"
	if csv.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", csv.String(), want)
	}
	csv.Reset()
	if err := WriteCSV(&csv, rows[:1], Computed{C: true}); err != nil || csv.String() != "id,c\ns1,0.75\n(system),0.75\n" {
		t.Errorf("C only: %q %v", csv.String(), err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rows[1:], true); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{
  "stories": [
    {
      "id": "s2",
      "vg": {
        "score": 0.25,
        "scaled": 0.125,
        "nouns": [],
        "images": []
      },
      "c": {
        "score": 0.25,
        "pairs": []
      },
      "nr": {
        "score": null
      },
      "rovist": null
    }
  ],
  "system": {
    "vg": 0.25,
    "vg_scaled": 0.125,
    "c": 0.25,
    "nr": null,
    "rovist": null,
    "rovist_uses_scaled_vg": true
  }
}
`
	if js.String() != wantJSON {
		t.Errorf("JSON:\n%s\nwant:\n%s", js.String(), wantJSON)
	}
}
