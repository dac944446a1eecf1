package vhedplot_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vhed/vhedplot"
)

// Draw the accuracy per ranking-gap bucket of a scorer that always prefers
// story 2, as SVG. Of the test file's 8 pairs without a human tie, story 2
// is the better one in 3 (see vhed's TestAssessStory2AlwaysBetter).
func Example() {
	pairs, err := vhed.Load("../testdata/vhed_small.csv", vhed.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	story2 := make([]float64, len(pairs))
	for i := range story2 {
		story2[i] = 1 // gap > 0: story 2 is better
	}
	rep, err := vhed.AssessPredictions(pairs, story2, vhed.AssessOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fig, err := vhedplot.AccuracyByGap([]vhedplot.Series{{Name: "story 2 is better", Report: rep}})
	if err != nil {
		log.Fatal(err)
	}
	var svg bytes.Buffer
	if err := vhedplot.Write(&svg, fig, "svg"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("overall %d/%d right\n", rep.Overall.Correct, rep.Overall.Total)
	fmt.Println("legend drawn:", strings.Contains(svg.String(), "story 2 is better"))
	// Output:
	// overall 3/8 right
	// legend drawn: true
}
