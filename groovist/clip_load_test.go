package groovist

import (
	"errors"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestLoadCLIP loads the fixture CLIP with its tokenizer folder and checks
// which folder each error blames: the model folder for a missing
// config.json, the tokenizer folder when it was given apart, the model
// folder when it is also the tokenizer's.
func TestLoadCLIP(t *testing.T) {
	dir := e2efixtures.Metric("clip")
	t.Logf("fixtures: %s", dir)
	m, tok, err := LoadCLIP(dir, tokenizerDir(dir), encoders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if enc := tok.Encode("a photo"); len(enc.IDs) != 4 { // start, "a", "photo", end
		t.Errorf("the tokenizer encodes \"a photo\" as %v, want 4 ids", enc.IDs)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		model, tok string
		dir        string
		tokenizer  bool
		vocab      bool
		text       string
	}{
		{empty, "", empty, false, false, "no config.json"},
		{dir, empty, empty, true, true, "no vocab.json and merges.txt"},
	} {
		_, _, err := LoadCLIP(tc.model, tc.tok, encoders.Options{})
		var fe *CLIPFolderError
		if !errors.As(err, &fe) || fe.Dir != tc.dir || fe.Tokenizer != tc.tokenizer || errors.Is(err, ErrNoVocabulary) != tc.vocab ||
			!strings.HasPrefix(err.Error(), tc.dir+": "+tc.text) {
			t.Errorf("LoadCLIP(%q, %q): %v (%+v), want a *CLIPFolderError on %s starting %q", tc.model, tc.tok, err, fe, tc.dir, tc.text)
		}
	}
	if tokenizerDir(dir) != dir {
		_, _, err := LoadCLIP(dir, "", encoders.Options{})
		var fe *CLIPFolderError
		if !errors.As(err, &fe) || fe.Dir != dir || fe.Tokenizer || !errors.Is(err, ErrNoVocabulary) {
			t.Errorf("model folder without a vocabulary: %v, want ErrNoVocabulary on the model folder", err)
		}
	}
}
