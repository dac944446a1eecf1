package imageproc

import (
	"strings"
	"testing"
)

func TestParseBox(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Box
	}{
		{"1,2,3,4", Box{1, 2, 3, 4}},
		{" [62.0, 62.0, 126.0, 94.5] ", Box{62, 62, 126, 94.5}},
		{"(0.5,1e1,-2,3)", Box{0.5, 10, -2, 3}},
	} {
		got, err := ParseBox(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseBox(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"1,2,3", `"1,2,3": want 4 comma-separated numbers`},
		{"1,2,x,4", `"1,2,x,4": strconv.ParseFloat: parsing "x": invalid syntax`},
	} {
		if _, err := ParseBox(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBox(%q): error %v, want %q", c.in, err, c.want)
		}
	}
}
