package groovist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSampleConcretenessWeights reproduces, exactly, the concreteness
// weights of GROOViST's own sample NP lists (testdata/), with the embedded
// ratings and pronouns.
func TestSampleConcretenessWeights(t *testing.T) {
	var nps map[string][]string
	var want struct {
		Result map[string][]struct {
			NP     string          `json:"np"`
			Weight float64         `json:"weight"`
			Words  [][]interface{} `json:"words"`
		} `json:"result"`
	}
	for path, v := range map[string]any{"sample_nphrases.json": &nps, "sample_concreteness_weights_expected.json": &want} {
		data, err := os.ReadFile(filepath.Join("testdata", path))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatal(err)
		}
	}
	ratings, err := DefaultRatings()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for sid, list := range want.Result {
		kept := DefaultPronouns().Filter(nps[sid])
		if len(kept) != len(list) {
			t.Errorf("%s: %d phrases kept, want %d", sid, len(kept), len(list))
			continue
		}
		for i, w := range list {
			got, detail, err := ratings.Weight(kept[i])
			if err != nil {
				t.Fatal(err)
			}
			if kept[i] != w.NP || got != w.Weight {
				t.Errorf("%s: %q weight %v, want %q %v", sid, kept[i], got, w.NP, w.Weight)
			}
			// every word, "word->lemma" when the lemma was tried, with its
			// rating or null
			var found []string
			for _, d := range detail {
				name := d.Word
				if d.Lemma != "" {
					name += "->" + d.Lemma
				}
				if d.Found {
					name += "=" + strconv.FormatFloat(d.Rating, 'g', -1, 64)
				}
				found = append(found, name)
			}
			var wantWords []string
			for _, ww := range w.Words {
				name := ww[0].(string)
				if r, ok := ww[1].(float64); ok {
					name += "=" + strconv.FormatFloat(r, 'g', -1, 64)
				}
				wantWords = append(wantWords, name)
			}
			if strings.Join(found, "|") != strings.Join(wantWords, "|") {
				t.Errorf("%s %q: rated words %q, want %q", sid, kept[i], found, wantWords)
			}
			checked += 2
		}
	}
	if checked == 0 {
		t.Fatal("no weight checked")
	}
	t.Logf("testdata/sample_concreteness_weights_expected.json: %d values checked", checked)
}
