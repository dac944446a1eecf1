package errquote

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"a\"b\n", `"a\"b\n"`},
		{strings.Repeat("x", 200), `"` + strings.Repeat("x", 200) + `"`},
		{strings.Repeat("x", 201), `"` + strings.Repeat("x", 200) + `"… (1 more bytes)`},
		// A 2-byte rune across the cut is left out whole.
		{strings.Repeat("x", 199) + "é" + "yz", `"` + strings.Repeat("x", 199) + `"… (4 more bytes)`},
		{"\xff", `"\xff"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.20q…) = %s, want %s", c.in, got, c.want)
		}
	}
}
