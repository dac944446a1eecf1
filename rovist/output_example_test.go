package rovist_test

import (
	"math"
	"os"

	"github.com/storyeval/storyeval/rovist"
)

// WriteCSV prints what `storyeval rovist -format csv` prints: one row per
// story, then the system means; an undefined score is NaN and is left out
// of the means.
func ExampleWriteCSV() {
	rows := []rovist.Scores{
		{ID: "s1", NR: &rovist.NRResult{Score: 0.8, Defined: true}},
		{ID: "s2", NR: &rovist.NRResult{Score: 0.6, Defined: true}},
		{ID: "one-sentence", NR: &rovist.NRResult{Score: math.NaN()}},
	}
	_ = rovist.WriteCSV(os.Stdout, rows, rovist.Computed{NR: true})
	// Output:
	// id,nr
	// s1,0.8
	// s2,0.6
	// one-sentence,NaN
	// (system),0.7
}
