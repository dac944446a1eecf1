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

// One parse serves both references: GROOViST's reading (StringIDs), and
// RoViST's (IntegerIDs) from View, which fails only where RoViST's
// int(image_id) would.
func ExampleEntities_View() {
	e, err := regions.Read(strings.NewReader("image_id,bbox\n007,[1]\n7,[2]\n"), "a.csv", regions.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rovist, err := e.View(regions.IntegerIDs)
	fmt.Println(len(rovist.Regions("7")), err)
	mixed, _ := regions.Read(strings.NewReader("image_id,bbox\n7,[1]\nimg8,[2]\n"), "b.csv", regions.Options{})
	_, err = mixed.View(regions.IntegerIDs)
	fmt.Println(len(mixed.Regions("img8")), err)
	// Output:
	// 2 <nil>
	// 1 regions b.csv line 3: image id "img8" is not an integer
}
