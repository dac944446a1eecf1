package rovist

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/regions"
)

// FuzzDecodeVGPairsCSV checks that any pairs file either decodes into
// pairs with a valid image id, bbox and phrase, or fails with an error.
func FuzzDecodeVGPairsCSV(f *testing.F) {
	f.Add("image_id,bbox,noun_phrase\n1,\"[1.0, 2.0, 3.0, 4.0]\",a dog\n")
	f.Add("noun_phrase,image_id,bbox\nthe car,2,\"[0, 0, 5, 5]\"\nthe car,2,\"[0, 0, 5, 5]\"\n")
	f.Add("image_id,bbox,noun_phrase\nx,[1],\n")
	f.Fuzz(func(t *testing.T, in string) {
		pairs, err := ReadVGPairsCSV(strings.NewReader(in), "fuzz.csv")
		if err != nil {
			return
		}
		if len(pairs) == 0 {
			t.Fatal("no pairs and no error")
		}
		for _, p := range pairs {
			if _, err := parseImageID(p.ImageID); err != nil {
				t.Fatalf("pair %+v: %v", p, err)
			}
			if _, ok := regions.ParseBBox(p.BBox); !ok || strings.TrimSpace(p.Phrase) == "" {
				t.Fatalf("pair %+v accepted", p)
			}
		}
	})
}
