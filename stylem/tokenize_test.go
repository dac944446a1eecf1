package stylem

import (
	"strings"
	"testing"
)

func TestRetokJoin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"what a happy day at the beach!", "what a happy day at the beach !"},
		{"I can't stop", "I can ' t stop"},
		{"one,two\nthree", "one , two \n three"},
		{"  spaced   out  ", "spaced out"},
		{"snake_case 3.50$", "snake_case 3 . 50 $"},
		{"café naïve", "café naïve"},
		{"e\u0301", "e \u0301"}, // a combining mark is not \w in Python
		{"", ""},
	}
	for _, tt := range tests {
		if got := retokJoin(tt.in); got != tt.want {
			t.Errorf("retokJoin(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		step PTBStep
		in   string
		want string
	}{
		{Simple, "What a HAPPY day!", "what a happy day <eos>"},
		{Simple, "(so) -- fun...", "( so ) fun <eos>"},
		{Simple, "", "<eos>"},
		{PTB, "What a HAPPY day!", "what a happy day <eos>"},
		// RETOK splits the clitic before PTB sees it, so "'" is dropped.
		{PTB, "I can't believe it's 5:30.", "i can t believe it s 5 30 <eos>"},
		{PTB, "(so) fun", "-lrb- so -rrb- fun <eos>"},
		{nil, "Hello there!!", "hello there <eos>"},
	}
	for _, tt := range tests {
		if got := strings.Join(Tokenize(tt.in, tt.step), " "); got != tt.want {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStepByName(t *testing.T) {
	for _, name := range []string{"ptb", "simple"} {
		if _, err := StepByName(name); err != nil {
			t.Errorf("StepByName(%q): %v", name, err)
		}
	}
	if _, err := StepByName("nltk"); err == nil || !strings.Contains(err.Error(), `"nltk"`) {
		t.Errorf("StepByName(nltk) error = %v, want one naming it", err)
	}
}
