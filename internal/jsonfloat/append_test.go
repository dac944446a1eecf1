package jsonfloat

import (
	"math"
	"testing"
)

func TestAppend(t *testing.T) {
	for x, want := range map[float64]string{0.1: "0.1", 1e21: "1e+21", -2: "-2", math.Inf(-1): "null"} {
		if got := string(Append([]byte("["), x)); got != "["+want {
			t.Errorf("Append(%v) = %q, want %q", x, got, "["+want)
		}
	}
	if got := string(Append(nil, math.NaN())); got != "null" {
		t.Errorf("Append(NaN) = %q", got)
	}
	if got, want := string(AppendString([]byte("x"), "a\"<b>\n\u2028")), `x"a\"<b>\n\u2028"`; got != want {
		t.Errorf("AppendString = %q, want %q", got, want)
	}
}
