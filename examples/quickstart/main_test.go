package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestRunPerItemBLEU4 checks the per-item BLEU-4 the quickstart prints
// against pycocoevalcap's for the same captions (the golden file of the 32
// caption cases, PTB mode): a caption's BLEU-4 depends on it and its
// references alone, so the 8-item subset has the same values.
func TestRunPerItemBLEU4(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../../ngram/testdata/captions_small.coco.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		Modes map[string]struct {
			Items map[string]map[string]float64 `json:"items"`
		} `json:"modes"`
	}
	if err := json.NewDecoder(zr).Decode(&gold); err != nil {
		t.Fatal(err)
	}
	_, items, _ := strings.Cut(out.String(), "per item (BLEU-4, CIDEr):\n")
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(items), "\n") {
		var id string
		var bleu4, cider float64
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%s %g %g", &id, &bleu4, &cider); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		want, ok := gold.Modes["ptb"].Items[id]
		if !ok {
			t.Fatalf("item %s is not a golden case", id)
		}
		if math.Abs(bleu4-want["Bleu_4"]) > 5e-7 { // printed to 6 decimals
			t.Errorf("%s: BLEU-4 %v, pycocoevalcap %v", id, bleu4, want["Bleu_4"])
		}
		checked++
	}
	if checked != 8 || !strings.HasPrefix(out.String(), "8 items\n") {
		t.Errorf("checked %d items of output:\n%s", checked, out.String())
	}
}
