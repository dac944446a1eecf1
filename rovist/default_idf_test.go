package rovist_test

import (
	"testing"

	"github.com/storyeval/storyeval/rovist"
)

func TestParseDefaultIDF(t *testing.T) {
	var o rovist.VGOptions
	if err := o.ParseDefaultIDF(""); err != nil || o.UseDefaultIDF {
		t.Errorf(`"": %v, use %v; want no default`, err, o.UseDefaultIDF)
	}
	if err := o.ParseDefaultIDF("1.5"); err != nil || !o.UseDefaultIDF || o.DefaultIDF != 1.5 {
		t.Errorf(`"1.5": %v, %+v; want the default 1.5`, err, o)
	}
	o = rovist.VGOptions{}
	if err := o.ParseDefaultIDF("x"); err == nil || err.Error() != `"x": strconv.ParseFloat: parsing "x": invalid syntax` || o.UseDefaultIDF {
		t.Errorf(`"x": %v, %+v; want an error quoting it and no default`, err, o)
	}
}
