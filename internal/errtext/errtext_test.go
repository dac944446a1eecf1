package errtext

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	if got := Quote("a\"b\x00"); got != `"a\"b\x00"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("é", 150) // 300 bytes
	got := Quote(long)
	if want := `"` + strings.Repeat("é", 100) + `"… (300 bytes)`; got != want {
		t.Errorf("long: %s", got)
	}
	odd := "x" + long // the cut falls inside a character
	if got := Quote(odd); got != `"x`+strings.Repeat("é", 99)+`"… (301 bytes)` {
		t.Errorf("odd: %s", got)
	}
}

func TestQuoteList(t *testing.T) {
	if got := QuoteList([]string{"id", "bbox"}); got != `"id", "bbox"` {
		t.Errorf("short: %s", got)
	}
	cols := make([]string, 40)
	for i := range cols {
		cols[i] = strings.Repeat("c", 30)
	}
	got := QuoteList(cols)
	if strings.Count(got, strings.Repeat("c", 30)) != 6 || !strings.HasSuffix(got, " … and 34 more of 40") {
		t.Errorf("many: %s", got)
	}
	if got := QuoteList([]string{strings.Repeat("h", 50<<20)}); len(got) > 300 || !strings.HasSuffix(got, "… (52428800 bytes)") {
		t.Errorf("one huge field: %.300s", got)
	}
}
