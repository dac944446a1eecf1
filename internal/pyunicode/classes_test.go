package pyunicode

import "testing"

func TestClassesMatchCPython(t *testing.T) {
	// Expected values are what CPython 3.11 answers for each code point.
	tests := []struct {
		r                                  rune
		space, decimal, word, upper, lower bool
	}{
		{' ', true, false, false, false, false},
		{'\x1c', true, false, false, false, false},
		{'\u00a0', true, false, false, false, false},
		{'\u200b', false, false, false, false, false}, // zero-width space is not \s
		{'\u3000', true, false, false, false, false},
		{'7', false, true, true, false, false},
		{'\u0663', false, true, true, false, false},  // ARABIC-INDIC DIGIT THREE
		{'\u00b2', false, false, true, false, false}, // superscript two: numeric, not decimal
		{'\u00bd', false, false, true, false, false}, // one half
		{'_', false, false, true, false, false},
		{'\u0301', false, false, false, false, false}, // combining acute: not \w
		{'é', false, false, true, false, true},
		{'É', false, false, true, true, false},
		{'\u01c5', false, false, true, false, false}, // titlecase Dž: neither upper nor lower
		{'\u24b6', false, false, false, true, false}, // circled A: Other_Uppercase, not \w
		{'\u00aa', false, false, true, false, true},  // ordinal a: Lo + Other_Lowercase
		{'\u2163', false, false, true, true, false},  // roman numeral four
	}
	for _, tt := range tests {
		if got := IsSpace(tt.r); got != tt.space {
			t.Errorf("IsSpace(%U) = %v, want %v", tt.r, got, tt.space)
		}
		if got := IsDecimal(tt.r); got != tt.decimal {
			t.Errorf("IsDecimal(%U) = %v, want %v", tt.r, got, tt.decimal)
		}
		if got := IsWord(tt.r); got != tt.word {
			t.Errorf("IsWord(%U) = %v, want %v", tt.r, got, tt.word)
		}
		if got := IsUpper(tt.r); got != tt.upper {
			t.Errorf("IsUpper(%U) = %v, want %v", tt.r, got, tt.upper)
		}
		if got := IsLower(tt.r); got != tt.lower {
			t.Errorf("IsLower(%U) = %v, want %v", tt.r, got, tt.lower)
		}
	}
}

func TestLowerMatchesStrLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Mr.", "mr."},
		{"already lower", "already lower"},
		{"İstanbul", "i\u0307stanbul"},
		{"ÉCOLE", "école"},
		{"\u212a", "k"}, // Kelvin sign
	}
	for _, tt := range tests {
		if got := Lower(tt.in); got != tt.want {
			t.Errorf("Lower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFoldEqualMatchesIgnoreCase(t *testing.T) {
	tests := []struct {
		r    rune
		p    byte
		want bool
	}{
		{'N', 'n', true},
		{'n', 'n', true},
		{'m', 'n', false},
		{'\u0130', 'i', true}, // İ: simple lower case is i
		{'\u0131', 'i', true}, // ı
		{'\u017f', 's', true}, // ſ
		{'\u212a', 'k', true}, // Kelvin sign
		{'\u00f1', 'n', false},
	}
	for _, tt := range tests {
		if got := FoldEqual(tt.r, tt.p); got != tt.want {
			t.Errorf("FoldEqual(%U, %q) = %v, want %v", tt.r, tt.p, got, tt.want)
		}
	}
}
