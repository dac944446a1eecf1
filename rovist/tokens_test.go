package rovist

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestTokens checks NLTK 3.8's sent_tokenize/word_tokenize by hand: an
// abbreviation does not end a sentence, contractions split as the Treebank
// tokenizer does, and an empty story encodes as [] (not null).
func TestTokens(t *testing.T) {
	sents, ws := Tokens("Mr. Smith went home. He can't stay.")
	if want := []string{"Mr. Smith went home.", "He can't stay."}; !reflect.DeepEqual(sents, want) {
		t.Errorf("sentences %q, want %q", sents, want)
	}
	if want := [][]string{{"Mr.", "Smith", "went", "home", "."}, {"He", "ca", "n't", "stay", "."}}; !reflect.DeepEqual(ws, want) {
		t.Errorf("words %q, want %q", ws, want)
	}
	sents, ws = Tokens("")
	b, err := json.Marshal([]any{sents, ws})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "[[],[]]" {
		t.Errorf("empty story: %s, want [[],[]]", b)
	}
}
