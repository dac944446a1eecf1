package encoders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// TestGoldensOnVariantFixtureSet runs the model golden tests on a fixture
// set derived from the default one the way another generator run may
// differ: a model left out (albert_gelu), outputs left out of an index
// (CLIP's text_hidden_states, some BERT arrays) — the tests must check what
// the index lists and nothing else.
func TestGoldensOnVariantFixtureSet(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		fixturedir.EditJSON(t, filepath.Join(root, "manifest.json"), func(m map[string]any) {
			delete(m["fixtures"].(map[string]any), "albert_gelu")
		})
		if err := os.RemoveAll(filepath.Join(root, "albert_gelu")); err != nil {
			t.Fatal(err)
		}
		dropArrays(t, filepath.Join(root, "clip", "golden", "index.json"), "text_hidden_states")
		dropArrays(t, filepath.Join(root, "bert", "golden", "index.json"), "single_hidden_states", "pair_simcse_cos_mean")
	})
	t.Run("BERT", TestBERTGoldens)
	t.Run("ALBERT", TestALBERTGoldens)
	t.Run("ViT", TestViTGoldens)
	t.Run("CLIP", TestCLIPGoldens)
}

// dropArrays removes arrays from a golden index of a Variant. An array the
// index does not list is already left out — sets made with other generator
// settings record fewer outputs (the full-size profile has no CLIP
// text_hidden_states) — so it is logged, not an error.
func dropArrays(t *testing.T, index string, names ...string) {
	t.Helper()
	fixturedir.EditJSON(t, index, func(m map[string]any) {
		arrays := m["arrays"].(map[string]any)
		for _, n := range names {
			if _, ok := arrays[n]; !ok {
				t.Logf("%s lists no %s: nothing to drop", index, n)
				continue
			}
			delete(arrays, n)
		}
	})
}

// TestGoldensOnVariantOfSetWithoutTextHiddenStates derives the variant set
// from a set whose CLIP index lists no text_hidden_states, as the
// full-size fixture profile writes it.
func TestGoldensOnVariantOfSetWithoutTextHiddenStates(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		dropArrays(t, filepath.Join(root, "clip", "golden", "index.json"), "text_hidden_states")
	})
	TestGoldensOnVariantFixtureSet(t)
}

// TestCLIPGoldensImagesOnly runs the CLIP goldens on a set whose CLIP index
// has image inputs and outputs only.
func TestCLIPGoldensImagesOnly(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		fixturedir.EditJSON(t, filepath.Join(root, "clip", "golden", "index.json"), func(m map[string]any) {
			arrays := m["arrays"].(map[string]any)
			for name := range arrays {
				if name == "input_ids" || name == "attention_mask" || strings.HasPrefix(name, "text_") || strings.HasPrefix(name, "logits_") {
					delete(arrays, name)
				}
			}
		})
	})
	TestCLIPGoldens(t)
}
