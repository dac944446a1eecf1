package pyunicode

import (
	"reflect"
	"testing"
)

// Expected values are CPython 3.11's str.split() and str.lower().
func TestFieldsMatchesStrSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ", nil},
		{"a b", []string{"a", "b"}},
		{"\ta\x1cb\x1fc\u00a0d\u3000e ", []string{"a", "b", "c", "d", "e"}},
		{"x\u200by", []string{"x\u200by"}}, // zero-width space is not white space
		{"é  ü", []string{"é", "ü"}},
	} {
		if got := Fields(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Fields(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLowerFinalSigma(t *testing.T) {
	for _, tc := range []struct{ in, whole, chars string }{
		{"ΟΔΟΣ", "οδος", "οδοσ"},
		{"ΣΑ", "σα", "σα"},
		{"İ", "i\u0307", "i\u0307"},
		{"ABC", "abc", "abc"},
	} {
		if got := Lower(tc.in); got != tc.whole {
			t.Errorf("Lower(%q) = %q, want %q", tc.in, got, tc.whole)
		}
		if got := LowerChars(tc.in); got != tc.chars {
			t.Errorf("LowerChars(%q) = %q, want %q", tc.in, got, tc.chars)
		}
	}
}
