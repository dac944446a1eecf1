package rovist_test

import (
	"fmt"

	"github.com/storyeval/storyeval/rovist"
)

func ExampleParseMetrics() {
	m, err := rovist.ParseMetrics("nr, VG")
	fmt.Printf("%+v %v\n", m, err)
	_, err = rovist.ParseMetrics("c,xx")
	fmt.Println(err)
	// Output:
	// {VG:true C:false NR:true} <nil>
	// unknown metric "xx" (want vg, c, nr)
}

func ExampleVGOptions_ParseDefaultIDF() {
	var opts rovist.VGOptions
	err := opts.ParseDefaultIDF("2.5")
	fmt.Println(opts.UseDefaultIDF, opts.DefaultIDF, err)
	// Output:
	// true 2.5 <nil>
}
