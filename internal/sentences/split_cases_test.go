package sentences

import "testing"

// TestSplitCases checks hand-picked texts against NLTK 3.8's sent_tokenize
// (expected values produced by NLTK 3.8 with the same English parameters):
// abbreviations, initials and ordinals, quotes and brackets realigned after
// a break, "!!!" decided once, Unicode whitespace and leading whitespace.
func TestSplitCases(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Mr. Smith went to Washington. He arrived at 5 p.m. on Jan. 3.", []string{"Mr. Smith went to Washington.", "He arrived at 5 p.m. on Jan. 3."}},
		{"\"Stop!\" she said. \"Now.\" Then (after a while.) it ended.", []string{"\"Stop!\"", "she said.", "\"Now.\"", "Then (after a while.)", "it ended."}},
		{"Very bad acting!!! I promise... Really?! Yes.", []string{"Very bad acting!!!", "I promise...", "Really?!", "Yes."}},
		{"  Leading space. Trailing space.   ", []string{"  Leading space.", "Trailing space."}},
		{"J. S. Bach was born in 1685. He wrote 3. fugues.", []string{"J. S. Bach was born in 1685.", "He wrote 3. fugues."}},
		{"One.\n\nTwo. three.\u00a0Four.\u3000Five.", []string{"One.", "Two.", "three.\u00a0Four.", "Five."}},
		{"St. Andrew's Church is here. The u.s. army came.", []string{"St. Andrew's Church is here.", "The u.s. army came."}},
		{"He said 'hi.' Then left--quickly. Done.", []string{"He said 'hi.'", "Then left--quickly.", "Done."}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Split(tt.text); !equalStrings(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
