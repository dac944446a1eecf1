package rovist_test

import (
	"fmt"

	"github.com/storyeval/storyeval/rovist"
)

func ExampleNonRedundancy() {
	story := "we went to the park . we went to the park . it was fun ."
	res, err := rovist.NonRedundancy(story, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score:", res.Score)
	for _, p := range res.Inter {
		fmt.Printf("sentences %d and %d: %d/%d\n", p.First, p.Second, p.Shared, p.Union)
	}
	// Output:
	// score: 0.8333333333333334
	// sentences 0 and 1: 5/5
	// sentences 0 and 2: 0/8
	// sentences 1 and 2: 0/8
}

func ExampleNonRedundancy_undefined() {
	res, err := rovist.NonRedundancy("a single sentence .", nil)
	fmt.Println(res.Defined, res.Score, err)
	// Output:
	// false NaN <nil>
}
