package vrank

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders"
)

// Words of the synthetic stories; vrank/train's tests learn a ranking rule
// from them, here they are only inputs.
var (
	goodWords = strings.Fields("sunny happy bright family smiled party friends beach warm laughed")
	badWords  = strings.Fields("broken grey nothing waited table door wall empty stood chair")
)

// tinyModel is a random 2-layer BERT (H 32) with the synthetic vocabulary.
func tinyModel(t testing.TB, seed int64) *Model {
	t.Helper()
	dir := t.TempDir()
	words := append([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, goodWords...)
	words = append(words, badWords...)
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Join(words, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{BERT: encoders.BERTConfig{VocabSize: 25, HiddenSize: 32, NumHiddenLayers: 2, NumAttentionHeads: 4,
		IntermediateSize: 64, HiddenAct: "gelu", MaxPositionEmbeddings: 32, TypeVocabSize: 2, LayerNormEps: 1e-12}}
	m, err := NewRandom(cfg, dir, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// storyPairs draws n pairs of random 6-word stories.
func storyPairs(rng *rand.Rand, n int) (s1, s2 []string) {
	story := func() string {
		w := make([]string, 6)
		for i := range w {
			if rng.Intn(2) == 0 {
				w[i] = goodWords[rng.Intn(len(goodWords))]
			} else {
				w[i] = badWords[rng.Intn(len(badWords))]
			}
		}
		return strings.Join(w, " ")
	}
	for i := 0; i < n; i++ {
		s1, s2 = append(s1, story()), append(s2, story())
	}
	return s1, s2
}
