package demomodels_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/demomodels"
)

// TestTokenizersCoverTheWords: the generated tokenizers load with the
// project's readers and give a word of the suite one whole piece (ALBERT's
// "▁word", BERT's "word", CLIP's "word</w>"), and a word outside it
// pieces, not the unknown token.
func TestTokenizersCoverTheWords(t *testing.T) {
	d, err := demomodels.Write(t.TempDir(), suite(t))
	if err != nil {
		t.Fatal(err)
	}
	albert, err := tokenize.LoadALBERT(filepath.Join(d.Models, "rovist", "albert-large-v1"))
	if err != nil {
		t.Fatal(err)
	}
	bert, err := tokenize.LoadBERT(filepath.Join(d.Models, "vrank"))
	if err != nil {
		t.Fatal(err)
	}
	clip, err := tokenize.LoadCLIP(filepath.Join(d.Models, "clip"), tokenize.CLIPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"ALBERT", albert.Tokenize("The beach"), []string{"▁the", "▁beach"}},
		{"BERT", bert.Tokenize("The beach"), []string{"the", "beach"}},
		{"CLIP", clip.Tokenize("The beach"), []string{"the</w>", "beach</w>"}},
		{"ALBERT unseen", albert.Tokenize("zq"), []string{"▁", "z", "q"}},
		{"BERT unseen", bert.Tokenize("zq"), []string{"z", "##q"}},
		{"CLIP unseen", clip.Tokenize("zq"), []string{"z", "q</w>"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}
