package train_test

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/rovist"
)

// Training pairs come from a Flickr30k Entities-style CSV; repeated rows
// are dropped as the original training script's drop_duplicates() does.
func Example_readVGPairsCSV() {
	in := "image_id,bbox,noun_phrase\n" +
		"2997155124,\"[62.0, 62.0, 126.0, 94.0]\",a brown dog\n" +
		"2997155124,\"[62.0, 62.0, 126.0, 94.0]\",a brown dog\n" +
		"3240246961,\"[28.6875, 81.4375, 54.375, 135.0]\",Zeppelin\n"
	pairs, err := rovist.ReadVGPairsCSV(strings.NewReader(in), "pairs.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pairs {
		fmt.Printf("%s_%s.jpg: %s\n", p.ImageID, p.BBox, p.Phrase)
	}
	fmt.Println(rovist.VGPhraseWords(pairs))
	// Output:
	// 2997155124_[62.0, 62.0, 126.0, 94.0].jpg: a brown dog
	// 3240246961_[28.6875, 81.4375, 54.375, 135.0].jpg: Zeppelin
	// [a brown dog Zeppelin]
}
