package groovist_test

import (
	"fmt"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/story"
)

// The image ids of a VWP story come from its scene's image count, and the
// dataset's θ preset goes with them (as groovist.py --dataset VWP).
func ExampleAssignImageIDs() {
	ds, _ := groovist.ParseDataset("VWP")
	table, _ := groovist.ParseImageTable([]byte(`{"tt0099685_0044": 3}`), ds)
	inputs := []groovist.Input{{Story: story.Story{ID: "tt0099685_0044;2"}, NPs: []string{"a man"}}}
	if err := groovist.AssignImageIDs(inputs, ds, table); err != nil {
		fmt.Println(err)
		return
	}
	theta, _, _ := groovist.ParseTheta("", ds)
	for _, im := range inputs[0].Images {
		fmt.Println(im.ID)
	}
	fmt.Println(theta.Value() == groovist.ThetaVWP)
	// Output:
	// tt0099685_0044_0
	// tt0099685_0044_1
	// tt0099685_0044_2
	// true
}
