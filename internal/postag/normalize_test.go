package postag

import "testing"

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Dog", "dog"},
		{"dog", "dog"},
		{"well-known", "!HYPHEN"},
		{"-lrb-", "-lrb-"}, // a leading hyphen is not "!HYPHEN"
		{"--x-y", "--x-y"}, // NLTK tests word[0], not the first hyphen
		{"1999", "!YEAR"},  // any four digits, not only years
		{"0000", "!YEAR"},  //
		{"19999", "!DIGITS"},
		{"3rd", "!DIGITS"},
		{"7", "!DIGITS"},
		{"1-2", "!HYPHEN"},     // the hyphen rule comes first
		{"²³⁴⁵", "!YEAR"},      // Python's str.isdigit accepts superscripts
		{"①ab", "!DIGITS"},     // and circled digits
		{"١٢٣٤", "!YEAR"},      // Arabic-Indic digits are Nd
		{"½", "½"},             // numeric but not a digit
		{"İA", "i\u0307a"},     // Python lowers U+0130 to two characters
		{"ÉCOLE", "école"},     //
		{"\xffAB", "\ufffdab"}, // invalid UTF-8: one character, as U+FFFD
	} {
		if got := normalize(c.in); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLastCharsAndFirstChar(t *testing.T) {
	for _, c := range []struct{ in, last3, first string }{
		{"", "", ""},
		{"a", "a", "a"},
		{"running", "ing", "r"},
		{"café", "afé", "c"},
		{"i\u0307ab", "\u0307ab", "i"},
	} {
		if got := lastChars(c.in, 3); got != c.last3 {
			t.Errorf("lastChars(%q, 3) = %q, want %q", c.in, got, c.last3)
		}
		if got := firstChar(c.in); got != c.first {
			t.Errorf("firstChar(%q) = %q, want %q", c.in, got, c.first)
		}
	}
}

func TestSplitFeature(t *testing.T) {
	for _, c := range []struct {
		key  string
		tmpl template
		args string
		ok   bool
	}{
		{"bias", tmplBias, "", true},
		{"i suffix ing", tmplSuffix, "ing", true},
		{"i pref1 ", tmplPref1, "", true},
		{"i-1 tag NN", tmplPrevTag, "NN", true},
		{"i-1 tag+i word DT dog", tmplPrevTagWord, "DT dog", true},
		{"i tag+i-2 tag -START- -START2-", tmplTagPair, "-START- -START2-", true},
		{"i+2 word -END-", tmplNext2Word, "-END-", true},
		{"i suffix", 0, "", false},
		{"unknown feature", 0, "", false},
	} {
		tmpl, args, ok := splitFeature(c.key)
		if ok != c.ok || ok && (tmpl != c.tmpl || args != c.args) {
			t.Errorf("splitFeature(%q) = %d, %q, %v; want %d, %q, %v", c.key, tmpl, args, ok, c.tmpl, c.args, c.ok)
		}
	}
}
