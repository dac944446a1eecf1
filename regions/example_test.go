package regions_test

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/regions"
)

// RoViST and GROOViST read the same regions file; RoViST compares image
// ids as integers.
func Example() {
	csv := "image_id,bbox,object\n" +
		"0042,\"[0, 0, 10, 20]\",dog\n" +
		"7,\"[5, 5, 9, 9]\",ball\n" +
		"42,\"[2, 2, 8, 8]\",cat\n"
	e, err := regions.Read(strings.NewReader(csv), "vist_entities.csv", regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range e.Regions("42") {
		fmt.Println(r.Object, r.Box, regions.CropPath("crops", r.ImageID, r.BBox))
	}
	// Output:
	// dog [0 0 10 20] crops/42_[0, 0, 10, 20].jpg
	// cat [2 2 8 8] crops/42_[2, 2, 8, 8].jpg
}
