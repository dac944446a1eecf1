package groovist_test

import (
	"math"
	"os"

	"github.com/storyeval/storyeval/groovist"
)

func ExampleWriteCLIPScoreCSV() {
	scores := []groovist.CaptionScore{
		{ID: "img_a", CLIPScore: 0.75, RefCLIPScore: 0.5, MaxRefCosine: 0.375, HasRefs: true},
		{ID: "img_b", CLIPScore: 0.25, RefCLIPScore: math.NaN(), MaxRefCosine: math.NaN()},
	}
	_ = groovist.WriteCLIPScoreCSV(os.Stdout, scores)
	// Output:
	// id,CLIPScore,RefCLIPScore
	// img_a,0.75,0.5
	// img_b,0.25,NaN
	// (mean),0.5,0.5
}
