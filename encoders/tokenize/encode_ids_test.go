package tokenize

import (
	"errors"
	"testing"
)

// TestEncodeIDs checks the ids beside the encodings, truncation, and that
// a max length below the special tokens' is a *TooShortError for the
// first text.
func TestEncodeIDs(t *testing.T) {
	bert, _, _ := loadTestTokenizers(t)
	ids, texts := []string{"a", "b"}, []string{"hi", "hello there"}
	got, err := EncodeIDs(bert, ids, texts, Options{}, nil)
	if err != nil || len(got) != 2 || got[1].ID != "b" || got[1].Len() != 4 || got[0].Tokens[1] != "hi" {
		t.Fatalf("EncodeIDs = %+v, %v; want a: [CLS] hi [SEP], b: 4 tokens", got, err)
	}
	// A max length of 1 is below the 2 special tokens: "hi" stays whole,
	// 3 tokens, as HF's tokenizer leaves it.
	got, err = EncodeIDs(bert, ids, texts, Options{MaxLength: 1, Truncation: LongestFirst}, nil)
	var ts *TooShortError
	if !errors.As(err, &ts) || ts.ID != "a" || ts.Len != 3 || len(got) != 0 {
		t.Errorf("max length 1: %+v, %v; want a TooShortError for a (3 tokens remain) and nothing before it", got, err)
	}
	// A max length the specials fit in truncates without an error.
	got, err = EncodeIDs(bert, ids, texts, Options{MaxLength: 3, Truncation: LongestFirst}, nil)
	if err != nil || len(got) != 2 || got[1].Len() != 3 || got[1].Tokens[1] != "hello" {
		t.Errorf("max length 3: %+v, %v; want b truncated to [CLS] hello [SEP]", got, err)
	}
}

// TestLongest checks the longest text over two parts, the first of equal
// lengths, and that truncation counts.
func TestLongest(t *testing.T) {
	bert, _, _ := loadTestTokenizers(t)
	var l Longest
	if err := l.Add(bert, []string{"a", "b"}, []string{"one two", "three four"}, Options{Padding: PadLongest}); err != nil {
		t.Fatal(err)
	}
	if err := l.Add(bert, []string{"c"}, []string{"five"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if l.Text != "one two" {
		t.Errorf("longest %q, want the first of the two 4-token texts", l.Text)
	}
	var tr Longest
	opt := Options{MaxLength: 4, Truncation: LongestFirst}
	if err := tr.Add(bert, []string{"a", "b"}, []string{"one two", "three four five six"}, opt); err != nil || tr.Text != "one two" {
		t.Errorf("truncated to 4: %q, %v; want the first text, as long as the truncated second", tr.Text, err)
	}
}
