package vhed_test

import (
	"fmt"
	"io"
	"log"

	"github.com/storyeval/storyeval/vhed"
)

// The story pairs of a VHED file, read one at a time as a pair predictor
// needs them.
func ExampleOpenReader() {
	r, err := vhed.OpenReader("testdata/vhed_small.csv", vhed.ReadOptions{StoriesOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	n := 0
	for ; ; n++ {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(n, "pairs")
	// Output:
	// 9 pairs
}
